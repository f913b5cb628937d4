// The route a content-API request is metered under: its method and route pattern, with the
// content type's name filled in — `GET /api/articles`, `PUT /api/articles/:documentId`,
// `POST /graphql`, `GET /uploads/*`. Document and file ids stay placeholders, so a project has
// as many routes as its content types give it, not one per document.
//
// The name is filled in only when the answer is a success: a made-up name (a 404) never becomes
// a route of its own; failed requests are counted under the pattern (`GET /api/:name`). Paths
// no route matches count as `other`. Labels are built once and reused: metering a request
// allocates no string.
import type { FastifyRequest } from 'fastify';
import { OTHER_ROUTE } from '@cms/billing';

const PREFIX = '/p/:slug';
const NAME = ':name';
// Names kept per pattern and method; a model with more types than this only rebuilds labels.
const NAMES_KEPT = 1000;

class RoutePattern {
  private readonly path: string;
  /** `path` split around `:name` (null when the pattern has none). */
  private readonly around: [string, string] | null;
  private readonly byMethod = new Map<string, string>();
  private readonly byName = new Map<string, Map<string, string>>();

  constructor(url: string) {
    const path = url.startsWith(PREFIX) ? url.slice(PREFIX.length) || '/' : url;
    this.path = path.replace('/uploads/:file', '/uploads/*');
    const at = this.path.indexOf(NAME);
    this.around = at === -1 ? null : [this.path.slice(0, at), this.path.slice(at + NAME.length)];
  }

  label(method: string, name: string | null): string {
    if (name === null || this.around === null) {
      let label = this.byMethod.get(method);
      if (label === undefined) this.byMethod.set(method, (label = `${method} ${this.path}`));
      return label;
    }
    let names = this.byName.get(method);
    if (!names) this.byName.set(method, (names = new Map()));
    let label = names.get(name);
    if (label === undefined) {
      if (names.size >= NAMES_KEPT) names.clear();
      names.set(name, (label = `${method} ${this.around[0]}${name}${this.around[1]}`));
    }
    return label;
  }
}

// By registered route URL: as many as the tenant plugin has routes.
const patterns = new Map<string, RoutePattern>();

export function meteredRoute(request: FastifyRequest, statusCode: number): string {
  const url = request.routeOptions.url;
  if (url === undefined || url.endsWith('*')) return OTHER_ROUTE;
  let pattern = patterns.get(url);
  if (!pattern) patterns.set(url, (pattern = new RoutePattern(url)));
  const name = (request.params as { name?: unknown }).name;
  return pattern.label(request.method, statusCode < 400 && typeof name === 'string' ? name : null);
}
