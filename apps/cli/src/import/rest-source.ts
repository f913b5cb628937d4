// The records of a running Strapi v5, read over its REST API with a full-access API token — for
// users who cannot run `strapi export`. Documents are read page by page per type, locale and
// status, with a populate built from the model (media, relations, components and dynamic zones at
// any depth), and turned into the same records an export archive gives.
import { Readable } from 'node:stream';
import type { FilesModel } from '@cms/schema/strapi-files';
import {
  addFound, attributesOf, bodyOf, countFound, hasComponentRelations, ownerRelations, unsupportedAttributes,
  type ComponentRelationsOf, type FileRecord, type ImportSource, type MediaOf, type RelationRecord, type RelationTarget,
  type RoleRecord, type Skipped, type StageTotals, type UserRecord, type VersionRecord,
} from '@cms/strapi-import';
import { CliError } from '../context.ts';

type Dict = Record<string, unknown>;
type Status = 'draft' | 'published';
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The documents a populated relation holds, in the order the API gives them. */
const linkedDocuments = (value: unknown): RelationTarget[] => (Array.isArray(value) ? value : value ? [value] : [])
  .flatMap((t) => (isDict(t) && typeof t.documentId === 'string' ? [{ documentId: t.documentId, locale: str(t.locale) }] : []));

/** One link of owner attribute `uid.field`, from a version of the owner to a target version. */
const linkKey = (uid: string, field: string, owner: RelationTarget, status: Status, target: RelationTarget) =>
  [uid, field, owner.documentId, owner.locale ?? '', status, target.documentId, target.locale ?? ''].join('\0');

const PAGE_SIZE = 100;

/** qs's bracket notation (`populate[tags]=true`), which Strapi parses. */
function encodeQuery(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => encodeQuery(v, `${prefix}[${i}]`));
  if (isDict(value)) return Object.entries(value).flatMap(([k, v]) => encodeQuery(v, prefix ? `${prefix}[${k}]` : k));
  return [`${encodeURIComponent(prefix).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`];
}

/** What to populate for one content type or component so a read returns everything the import needs. */
function populateOf(model: FilesModel, uid: string, depth = 0): Dict | true {
  if (depth > 5) return true;
  const populate: Dict = {};
  for (const [name, attr] of Object.entries(attributesOf(model, uid))) {
    if (attr.type === 'media' || attr.type === 'relation') populate[name] = true;
    else if (attr.type === 'component') populate[name] = { populate: populateOf(model, attr.component!, depth + 1) };
    else if (attr.type === 'dynamiczone') {
      const components = (attr as { components?: string[] }).components ?? [];
      populate[name] = { on: Object.fromEntries(components.map((c) => [c, { populate: populateOf(model, c, depth + 1) }])) };
    }
  }
  return Object.keys(populate).length ? populate : true;
}

class RestClient {
  readonly base: string;

  constructor(url: string, private readonly token: string) {
    this.base = url.replace(/\/+$/, '');
  }

  async get<T>(path: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.base + path, { headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' } });
    } catch (err) {
      throw new CliError(`Cannot reach ${this.base}: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok) {
      const message = (() => { try { return (JSON.parse(text) as { error?: { message?: string } }).error?.message; } catch { return undefined; } })();
      throw new RestError(res.status, `GET ${path} answered ${res.status}${message ? `: ${message}` : ''}`);
    }
    return JSON.parse(text) as T;
  }

  /** A file's bytes, from the URL the API gives. */
  async download(url: string): Promise<Readable> {
    // A relative URL is under the address given (a Strapi served below a path prefix serves its
    // uploads there too).
    const absolute = /^https?:\/\//.test(url) ? url : `${this.base}${url.startsWith('/') ? '' : '/'}${url}`;
    const res = await fetch(absolute);
    if (!res.ok || !res.body) throw new RestError(res.status, `GET ${absolute} answered ${res.status}`);
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  }
}

class RestError extends CliError {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The model from the Strapi's content-type builder API, when the token may read it. */
export async function restModel(url: string, token: string): Promise<FilesModel> {
  const client = new RestClient(url, token);
  try {
    const types = await client.get<{ data: Array<{ uid: string; schema: Dict }> }>('/api/content-type-builder/content-types');
    const components = await client.get<{ data: Array<{ uid: string; schema: Dict }> }>('/api/content-type-builder/components');
    const model: FilesModel = { contentTypes: {}, components: {} };
    for (const t of types.data) if (t.uid.startsWith('api::')) model.contentTypes[t.uid] = t.schema;
    for (const c of components.data) model.components[c.uid] = c.schema;
    return model;
  } catch (err) {
    if (err instanceof RestError && (err.status === 401 || err.status === 403 || err.status === 404 || err.status === 405)) {
      throw new CliError(`${url} does not give its model to this token (${err.message}): pass the Strapi project folder too (cms import strapi <dir> --from-url …).`);
    }
    throw err;
  }
}

export class RestSource implements ImportSource {
  readonly skipped: Skipped[] = [];
  readonly found = new Map<string, number>();
  private readonly client: RestClient;
  private localeList: { codes: string[]; defaultLocale: string | null } | null = null;
  private fileTotal: number | null = null;
  /** Owner links (`linkKey`) → their place in the target's inverse list, as the versions' reads gave it. */
  private readonly inversePositions = new Map<string, number>();

  constructor(url: string, token: string, private readonly model: FilesModel) {
    this.client = new RestClient(url, token);
  }

  async locales() {
    if (this.localeList) return this.localeList;
    try {
      const list = await this.client.get<Array<{ code: string; isDefault?: boolean }>>('/api/i18n/locales');
      this.localeList = { codes: list.map((l) => l.code), defaultLocale: list.find((l) => l.isDefault)?.code ?? null };
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      this.skipped.push({ what: 'locales', reason: `could not be read (${err.message}): only the default locale is imported` });
      this.localeList = { codes: [], defaultLocale: null };
    }
    return this.localeList;
  }

  async roles(): Promise<RoleRecord[]> {
    try {
      const { roles } = await this.client.get<{ roles: Array<{ type: string; name: string; description?: string | null }> }>('/api/users-permissions/roles');
      return roles.map((r) => ({ type: r.type, name: r.name, description: r.description ?? null }));
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      // Without the roles route: the roles the users hold (as `populate=role` shows them).
      const roles = new Map<string, RoleRecord>();
      for await (const u of this.userRows()) {
        const role = u.role as Dict | undefined;
        if (typeof role?.type === 'string') roles.set(role.type, { type: role.type, name: str(role.name) ?? role.type, description: str(role.description) });
      }
      return [...roles.values()];
    }
  }

  /** The users-permissions users with their role, page by page. */
  private async *userRows(): AsyncGenerator<Dict> {
    for (let start = 0; ; start += PAGE_SIZE) {
      let page: Dict[];
      try {
        page = await this.client.get<Dict[]>(`/api/users?populate=role&start=${start}&limit=${PAGE_SIZE}&sort=id:asc`);
      } catch (err) {
        if (!(err instanceof RestError)) throw err;
        this.skipped.push({ what: 'users', reason: `could not be read (${err.message})` });
        return;
      }
      yield* page;
      if (page.length < PAGE_SIZE) return;
    }
  }

  async *users(): AsyncGenerator<UserRecord> {
    for await (const u of this.userRows()) {
      addFound(this.found, 'users');
      if (typeof u.email !== 'string' || typeof u.username !== 'string') {
        this.skipped.push({ what: `user ${String(u.documentId ?? u.id)}`, reason: 'has no e-mail or username' });
        continue;
      }
      yield {
        documentId: str(u.documentId), username: u.username, email: u.email, password: null, provider: str(u.provider) ?? 'local',
        confirmed: u.confirmed === true, blocked: u.blocked === true, role: str((u.role as Dict | undefined)?.type) ?? 'authenticated',
      };
    }
  }

  /** The upload API's files, page by page (a page equal to the previous one ends it). */
  private async *fileRows(): AsyncGenerator<Dict> {
    let previous = '';
    for (let page = 1; ; page++) {
      const rows = await this.client.get<Dict[] | { results?: Dict[] }>(`/api/upload/files?sort=id:asc&pagination[page]=${page}&pagination[pageSize]=${PAGE_SIZE}`);
      const list = Array.isArray(rows) ? rows : rows.results ?? [];
      const first = String(list[0]?.documentId ?? '');
      if (list.length === 0 || first === previous) return;
      previous = first;
      yield* list;
      if (list.length < PAGE_SIZE) return;
    }
  }

  /** Only the files are counted in advance (one listing); documents are read per type, locale and status. */
  async totals(): Promise<StageTotals> {
    if (this.fileTotal === null) {
      let n = 0;
      for await (const _ of this.fileRows()) n++;
      this.fileTotal = n;
    }
    return { users: null, files: this.fileTotal, documents: null, relations: null };
  }

  async *files(): AsyncGenerator<FileRecord> {
    for await (const f of this.fileRows()) {
      addFound(this.found, 'files');
      const documentId = str(f.documentId);
      const url = str(f.url);
      if (!documentId || !url) {
        this.skipped.push({ what: `file ${String(f.documentId ?? f.id)} (${String(f.name)})`, reason: 'the upload API gives no documentId or URL for it' });
        continue;
      }
      let body: Readable;
      try {
        body = await this.client.download(url);
      } catch (err) {
        if (!(err instanceof RestError)) throw err;
        this.skipped.push({ what: `file ${documentId} (${String(f.name)})`, reason: `its content could not be downloaded (${err.message})` });
        continue;
      }
      yield {
        documentId, body, name: str(f.name) ?? `${String(f.hash)}${String(f.ext ?? '')}`, mime: str(f.mime) ?? 'application/octet-stream',
        alternativeText: str(f.alternativeText), caption: str(f.caption), createdAt: str(f.createdAt), updatedAt: str(f.updatedAt),
      };
    }
  }

  private mediaOf: MediaOf = (_uid, row, field) => {
    const value = row[field];
    return (Array.isArray(value) ? value : value ? [value] : []).flatMap((f) => (isDict(f) && typeof f.documentId === 'string' ? [f.documentId] : []));
  };

  /** Every version of every type (or of `only`): per locale (localized types) and status (draft & publish types). */
  private async *documents(only?: ReadonlySet<string>): AsyncGenerator<{ uid: string; schema: Dict; row: Dict; status: Status; locale: string | null }> {
    const { codes } = await this.locales();
    for (const [uid, schema] of Object.entries(this.model.contentTypes)) {
      if (only && !only.has(uid)) continue;
      const info = (schema.info ?? {}) as Dict;
      const single = schema.kind === 'singleType';
      const name = single ? str(info.singularName) : str(info.pluralName);
      if (!name) continue;
      const draftAndPublish = (schema.options as Dict | undefined)?.draftAndPublish === true;
      const localized = ((schema.pluginOptions as Dict | undefined)?.i18n as Dict | undefined)?.localized === true;
      const populate = encodeQuery({ populate: populateOf(this.model, uid) }).join('&');
      for (const locale of localized && codes.length ? codes : [null]) {
        for (const status of draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const)) {
          const scope = `${populate}&status=${status}${locale ? `&locale=${encodeURIComponent(locale)}` : ''}`;
          if (single) {
            const res = await this.client.get<{ data: Dict | null }>(`/api/${name}?${scope}`).catch((err: unknown) => {
              if (err instanceof RestError && err.status === 404) return { data: null };
              throw err;
            });
            if (res.data) yield { uid, schema, row: res.data, status, locale: localized ? locale : null };
            continue;
          }
          for (let page = 1; ; page++) {
            const res = await this.client.get<{ data: Dict[]; meta?: { pagination?: { pageCount?: number } } }>(
              `/api/${name}?${scope}&sort=id:asc&pagination[page]=${page}&pagination[pageSize]=${PAGE_SIZE}`);
            for (const row of res.data) yield { uid, schema, row, status, locale: localized ? locale : null };
            if (page >= (res.meta?.pagination?.pageCount ?? 1) || res.data.length === 0) break;
          }
        }
      }
    }
  }

  async *versions(): AsyncGenerator<VersionRecord> {
    const attributesSeen = new Set<string>();
    for await (const { uid, schema, row, status, locale } of this.documents()) {
      if (!attributesSeen.has(uid)) this.skipped.push(...unsupportedAttributes(this.model, uid, attributesSeen));
      countFound(this.found, uid, locale, schema, { publishedAt: status === 'published' ? 'yes' : null });
      const documentId = str(row.documentId);
      if (!documentId) {
        this.skipped.push({ what: `${uid} row ${String(row.id)} (${locale ?? '-'}, ${status})`, reason: 'has no documentId (not a Strapi 5 entry)' });
        continue;
      }
      this.indexInverseSides(uid, { documentId, locale }, row, status);
      yield {
        uid, documentId, locale, status, data: bodyOf(this.model, uid, row, this.mediaOf),
        createdAt: str(row.createdAt), updatedAt: str(row.updatedAt), publishedAt: status === 'published' ? str(row.publishedAt) : null,
      };
    }
  }

  /**
   * Where each owner stands in this version's inverse (`mappedBy`) lists (a chef's
   * `apprentices`), for the relations stage: the owners' own reads do not tell. A version lists
   * the owners' versions of its status; an owner without draft & publish is listed by the
   * published one.
   */
  private indexInverseSides(uid: string, version: RelationTarget, row: Dict, status: Status): void {
    for (const [name, attr] of Object.entries(attributesOf(this.model, uid))) {
      if (attr.type !== 'relation' || !attr.mappedBy || !attr.target) continue;
      const ownerDraftAndPublish = (this.model.contentTypes[attr.target]?.options as Dict | undefined)?.draftAndPublish === true;
      if (!ownerDraftAndPublish && status !== 'published') continue;
      linkedDocuments(row[name]).forEach((owner, i) => this.inversePositions.set(linkKey(attr.target!, attr.mappedBy!, owner, status, version), i + 1));
    }
  }

  /** The populated targets of a relation inside a component, as the API gives them. */
  private componentRelationsOf: ComponentRelationsOf = (_uid, row, field) => linkedDocuments(row[field]);

  /** Read again: the versions of the types whose components hold relations, with those relations. */
  async *componentRelationVersions(): AsyncGenerator<VersionRecord & { links: number }> {
    const types = new Set(Object.keys(this.model.contentTypes).filter((uid) => hasComponentRelations(this.model, uid)));
    if (types.size === 0) return;
    for await (const { uid, row, status, locale } of this.documents(types)) {
      const documentId = str(row.documentId);
      let links = 0;
      const data = bodyOf(this.model, uid, row, this.mediaOf, (component, r, field) => {
        const targets = this.componentRelationsOf(component, r, field);
        links += targets?.length ?? 0;
        return targets;
      });
      if (!documentId || links === 0) continue;
      yield {
        uid, documentId, locale, status, data, links,
        createdAt: str(row.createdAt), updatedAt: str(row.updatedAt), publishedAt: status === 'published' ? str(row.publishedAt) : null,
      };
    }
  }

  async *relations(): AsyncGenerator<RelationRecord> {
    for await (const { uid, row, status, locale } of this.documents()) {
      const fields = ownerRelations(this.model, uid);
      const documentId = str(row.documentId);
      if (!documentId || fields.length === 0) continue;
      const relations: RelationRecord['relations'] = {};
      for (const field of fields) {
        relations[field] = linkedDocuments(row[field]).map((target) => {
          const inversePosition = this.inversePositions.get(linkKey(uid, field, { documentId, locale }, status, target));
          return inversePosition ? { ...target, inversePosition } : target;
        });
      }
      yield { uid, documentId, locale, status, relations };
    }
  }
}
