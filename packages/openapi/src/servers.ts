// The `servers` of a project's document: its API base by path (`…/p/{slug}/api`) and by host
// (`{slug}.{BASE_DOMAIN}/api`), as seen by the request that asked for the document.

export interface Server {
  url: string;
  description: string;
}

export interface ServerSite {
  slug: string;
  /** `http` or `https`, as the gateway sees the request (through trusted proxies) */
  protocol: string;
  /** The request's Host (with its port, if any) */
  host: string;
  baseDomain: string;
  /** The request came to `{slug}.{BASE_DOMAIN}` (rewritten to `/p/{slug}`): its host is the project's own. */
  hostRouted: boolean;
}

/** `:port` of a Host header, or ''. */
function portOf(host: string): string {
  const match = /^(?:\[[^\]]*\]|[^:]*)(:[0-9]+)$/.exec(host);
  return match ? match[1]! : '';
}

export function projectServers(site: ServerSite): Server[] {
  const port = portOf(site.host);
  // On a project host the path form lives on the gateway's own domain, taken to be BASE_DOMAIN.
  const origin = site.hostRouted ? `${site.protocol}://${site.baseDomain}${port}` : `${site.protocol}://${site.host}`;
  return [
    { url: `${origin}/p/${site.slug}/api`, description: 'By path' },
    { url: `${site.protocol}://${site.slug}.${site.baseDomain}${port}/api`, description: 'The project\'s own host' },
  ];
}
