// The records of a `strapi export` archive. The archive is streamed several times, each stage
// reading what it needs as it passes and stopping after its part (the users' and the documents'
// reads do not unpack the assets behind the entities). Kept in memory are only small indexes:
// the files' metadata, the media links (owner row → file ids), which row id is which document
// version, and the relation links of the relations stage. Assets and entity bodies are never held.
import type { FilesModel } from '@cms/schema/strapi-files';
import { ImportError } from './errors.ts';
import { readArchive } from './archive.ts';
import { attributesOf, bodyOf, ownerRelations, unsupportedAttributes, type ComponentRelationsOf, type MediaOf, type RelationTarget } from './document-data.ts';
import { addFound, type FileRecord, type ImportSource, type RelationRecord, type RoleRecord, type Skipped, type StageTotals, type UserRecord, type VersionRecord } from './source.ts';

type Dict = Record<string, unknown>;

const FILE = 'plugin::upload.file';
const LOCALE = 'plugin::i18n.locale';
const ROLE = 'plugin::users-permissions.role';
const USER = 'plugin::users-permissions.user';

interface FileMeta {
  documentId: string;
  name: string;
  mime: string;
  alternativeText: string | null;
  caption: string | null;
  createdAt: string | null;
  updatedAt: string | null;
}

interface VersionKey {
  documentId: string;
  locale: string | null;
  status: 'draft' | 'published';
}

interface LinkEnd {
  type?: string;
  ref?: unknown;
  field?: string;
  pos?: number;
}

/** A link between two rows. */
interface Link {
  pos: number;
  seq: number;
  target: string;
}

/** An owner-side link, with its place among the links to its target row where Strapi gives one. */
interface OwnerLink extends Link {
  inversePos?: number;
  inverseRank?: number;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
/** A relation's link: Strapi writes one whose target is its own type (a chef's `mentor`) as `relation.circular`. */
const isRelationLink = (link: Dict) => link.kind === 'relation.basic' || link.kind === 'relation.circular';
const rowKey = (type: string, ref: unknown) => `${type}\0${String(ref)}`;
/** Strapi numbers a link's position from 1; links without one keep the order they came in. */
const byPosition = <T extends { pos: number; seq: number }>(a: T, b: T) => a.pos - b.pos || a.seq - b.seq;

/** Count a version found (before deciding whether it can be imported). */
export function countFound(found: Map<string, number>, type: string, locale: string | null, schema: Dict | undefined, data: Dict): void {
  const draftAndPublish = (schema?.options as Dict | undefined)?.draftAndPublish === true;
  addFound(found, type, locale, !draftAndPublish || data.publishedAt ? 'published' : 'draft');
}

/** Why the entries of a type Strapi keeps for itself or a plugin are not imported. */
function notImported(type: string): string {
  if (type === 'admin::user') return 'admin panel users are not imported: invite them as members of the project';
  if (type === 'admin::role' || type === 'admin::permission') return 'the admin panel\'s roles and permissions are not imported: members have the project roles owner, editor and viewer';
  if (/^admin::(api-token|transfer-token)/.test(type)) return 'tokens are not imported: create new ones';
  if (type === 'plugin::users-permissions.permission') return 'users-permissions permissions are not imported: set each role\'s permissions in the dashboard (or PUT /v1/projects/{slug}/roles/{type}/permissions)';
  if (type === 'plugin::upload.folder') return 'media library folders are not imported: the files are imported without a folder';
  return 'the data of this part of Strapi is not imported';
}

/** Entity types the import reads (content types aside). */
const READ_TYPES = new Set([FILE, LOCALE, ROLE, USER]);
const isContentType = (type: string) => !type.startsWith('plugin::') && !type.startsWith('admin::') && !type.startsWith('strapi::');

export class ArchiveSource implements ImportSource {
  readonly skipped: Skipped[] = [];
  readonly found = new Map<string, number>();
  private prepared = false;
  private strapiVersion: string | null = null;
  private localeCodes: string[] = [];
  private defaultLocale: string | null = null;
  private readonly filesById = new Map<string, FileMeta & { fileName: string }>();
  private readonly roleById = new Map<string, RoleRecord>();
  private readonly userRole = new Map<string, string>();
  /** owner row (`type\0id`) → its media links */
  private readonly media = new Map<string, Array<{ field: string; pos: number; seq: number; file: string }>>();
  /** content row (`uid\0id`) → the document version it is */
  private readonly versionOfRow = new Map<string, VersionKey>();
  /** Entries of types the import leaves out (admin, plugins' own data) → how many. */
  private readonly leftOut = new Map<string, number>();
  private readonly stageTotals: StageTotals = { users: 0, files: 0, documents: 0, relations: 0 };
  /** owner rows with relation links (the relations stage's size) */
  private readonly relationSources = new Set<string>();
  /** component row (`uid\0id`) → its relation attributes' links */
  private readonly componentLinks = new Map<string, Map<string, Link[]>>();
  /** content rows (`uid\0id`) whose components hold relation links: sent again at the end */
  private readonly withComponentRelations = new Set<string>();
  private seq = 0;

  constructor(private readonly path: string, private readonly model: FilesModel) {}

  /** The first pass: everything but the assets and the entity bodies, indexed. */
  async prepare(): Promise<void> {
    if (this.prepared) return;
    await readArchive(this.path, {
      metadata: (json) => {
        this.strapiVersion = str((json.strapi as Dict | undefined)?.version);
      },
      line: (stage, item) => {
        if (stage === 'entities') this.indexEntity(item);
        else if (stage === 'links') this.indexLink(item);
        else if (stage === 'configuration') this.indexConfiguration(item);
      },
    });
    const major = Number((this.strapiVersion ?? '').split('.')[0]);
    if (this.strapiVersion !== null && major !== 5) {
      throw new ImportError(`${this.path} was exported by Strapi ${this.strapiVersion}: only Strapi 5 exports can be imported (upgrade the project to Strapi 5 first).`);
    }
    for (const [type, n] of this.leftOut) this.skipped.push({ what: `${n} ${n === 1 ? 'entry' : 'entries'} of ${type}`, reason: notImported(type) });
    this.stageTotals.files = this.filesById.size;
    this.stageTotals.relations = this.relationSources.size;
    this.relationSources.clear();
    this.prepared = true;
  }

  private indexEntity(item: Dict): void {
    const type = str(item.type);
    const data = item.data as Dict | undefined;
    if (!type || !data) return;
    const id = String(item.id);
    if (this.model.contentTypes[type]) this.stageTotals.documents!++;
    else if (type === USER) this.stageTotals.users!++;
    else if (!READ_TYPES.has(type) && !isContentType(type)) this.leftOut.set(type, (this.leftOut.get(type) ?? 0) + 1);
    if (type === LOCALE && typeof data.code === 'string') this.localeCodes.push(data.code);
    else if (type === ROLE && typeof data.type === 'string') {
      this.roleById.set(id, { type: data.type, name: str(data.name) ?? data.type, description: str(data.description) });
    } else if (type === FILE && typeof data.documentId === 'string') {
      this.filesById.set(id, {
        documentId: data.documentId, name: str(data.name) ?? `${data.hash}${data.ext ?? ''}`, mime: str(data.mime) ?? 'application/octet-stream',
        alternativeText: str(data.alternativeText), caption: str(data.caption), fileName: `${data.hash}${data.ext ?? ''}`,
        createdAt: str(data.createdAt), updatedAt: str(data.updatedAt),
      });
    }
  }

  private indexLink(link: Dict): void {
    const left = (link.left ?? {}) as LinkEnd;
    const right = (link.right ?? {}) as LinkEnd;
    if (link.kind === 'relation.morph' && left.type === FILE && left.field === 'related' && right.type && right.field) {
      const key = rowKey(right.type, right.ref);
      const list = this.media.get(key) ?? [];
      list.push({ field: right.field, pos: Number(right.pos ?? 0), seq: this.seq++, file: String(left.ref) });
      this.media.set(key, list);
    } else if (link.kind === 'relation.basic' && left.type === USER && left.field === 'role' && right.type === ROLE) {
      this.userRole.set(String(left.ref), String(right.ref));
    } else if (this.isOwnerLink(link)) {
      this.relationSources.add(rowKey(left.type!, left.ref));
    } else if (isRelationLink(link) && left.type && right.type && left.field && this.model.components[left.type]
      && attributesOf(this.model, left.type)[left.field]?.type === 'relation') {
      const key = rowKey(left.type, left.ref);
      const fields = this.componentLinks.get(key) ?? new Map<string, Link[]>();
      const list = fields.get(left.field) ?? [];
      list.push({ pos: Number(left.pos ?? 0), seq: this.seq++, target: rowKey(right.type, right.ref) });
      fields.set(left.field, list);
      this.componentLinks.set(key, fields);
    }
  }

  private readonly ownerFields = new Map<string, Set<string>>();

  /** A relation link the relations stage imports: from an owner-side attribute of a content type of the model. */
  private isOwnerLink(link: Dict): boolean {
    const left = (link.left ?? {}) as LinkEnd;
    const right = (link.right ?? {}) as LinkEnd;
    if (!isRelationLink(link) || !left.type || !right.type || !left.field || !this.model.contentTypes[left.type]) return false;
    let fields = this.ownerFields.get(left.type);
    if (!fields) this.ownerFields.set(left.type, fields = new Set(ownerRelations(this.model, left.type)));
    return fields.has(left.field);
  }

  private indexConfiguration(item: Dict): void {
    const value = item.value as Dict | undefined;
    if (item.type !== 'core-store' || value?.key !== 'plugin_i18n_default_locale') return;
    const stored = value.value;
    // The core store keeps it as JSON text (`"en"`) or as the value itself.
    try {
      this.defaultLocale = typeof stored === 'string' ? (stored.startsWith('"') ? JSON.parse(stored) as string : stored) : null;
    } catch {
      this.defaultLocale = null;
    }
  }

  async locales() {
    await this.prepare();
    return { codes: [...new Set(this.localeCodes)], defaultLocale: this.defaultLocale };
  }

  async roles(): Promise<RoleRecord[]> {
    await this.prepare();
    return [...this.roleById.values()];
  }

  async totals(): Promise<StageTotals> {
    await this.prepare();
    return { ...this.stageTotals };
  }

  /** Entities of one kind, streamed from the archive (a channel between the reader and the consumer). */
  private async *entities(filter: (type: string) => boolean): AsyncGenerator<{ type: string; id: string; data: Dict }> {
    yield* this.stream<{ type: string; id: string; data: Dict }>((push) => readArchive(this.path, {
      line: async (stage, item) => {
        if (stage !== 'entities' || typeof item.type !== 'string' || !filter(item.type) || !item.data) return;
        await push({ type: item.type, id: String(item.id), data: item.data as Dict });
      },
    }, ['entities']));
  }

  /**
   * Runs `produce` (an archive read) and yields what it pushes, one at a time: the reader waits
   * for each item to be consumed, so nothing piles up in memory.
   */
  private async *stream<T>(produce: (push: (item: T) => Promise<void>) => Promise<void>): AsyncGenerator<T> {
    let waiting: ((item: { value: T } | { done: true; error?: unknown }) => void) | null = null;
    let resume: (() => void) | null = null;
    const queue: Array<{ value: T } | { done: true; error?: unknown }> = [];
    const deliver = (msg: { value: T } | { done: true; error?: unknown }) => {
      if (waiting) {
        const w = waiting;
        waiting = null;
        w(msg);
      } else queue.push(msg);
    };
    const push = (value: T) => new Promise<void>((resolve) => {
      resume = resolve;
      deliver({ value });
    });
    void produce(push).then(() => deliver({ done: true }), (error: unknown) => deliver({ done: true, error }));
    for (;;) {
      const msg = queue.shift() ?? await new Promise<{ value: T } | { done: true; error?: unknown }>((r) => { waiting = r; });
      if ('done' in msg) {
        if (msg.error) throw msg.error;
        return;
      }
      yield msg.value;
      const r = resume as (() => void) | null;
      resume = null;
      r?.();
    }
  }

  async *users(): AsyncGenerator<UserRecord> {
    await this.prepare();
    for await (const { id, data } of this.entities((t) => t === USER)) {
      addFound(this.found, 'users');
      const role = this.roleById.get(this.userRole.get(id) ?? '')?.type ?? 'authenticated';
      if (typeof data.email !== 'string' || typeof data.username !== 'string') {
        this.skipped.push({ what: `user ${id}`, reason: 'has no e-mail or username' });
        continue;
      }
      yield {
        documentId: str(data.documentId), username: data.username, email: data.email, password: str(data.password),
        provider: str(data.provider) ?? 'local', confirmed: data.confirmed === true, blocked: data.blocked === true, role,
      };
    }
  }

  async *files(): AsyncGenerator<FileRecord> {
    await this.prepare();
    const byFileName = new Map([...this.filesById.values()].map((f) => [f.fileName, f]));
    addFound(this.found, 'files', null, null, this.filesById.size);
    const seen = new Set<string>();
    yield* this.stream<FileRecord>((push) => readArchive(this.path, {
      asset: async (fileName, body) => {
        const meta = byFileName.get(fileName);
        // Formats (thumbnail_…, small_…) are made again by the platform's media pipeline.
        if (!meta) return void body.resume();
        seen.add(fileName);
        // Resolves once the consumer asks for the next file, having read this one's body.
        await push({
          documentId: meta.documentId, name: meta.name, mime: meta.mime, alternativeText: meta.alternativeText, caption: meta.caption,
          createdAt: meta.createdAt, updatedAt: meta.updatedAt, body,
        });
      },
    }, ['assets']));
    for (const [fileName, meta] of byFileName) {
      if (!seen.has(fileName)) this.skipped.push({ what: `file ${meta.documentId} (${meta.name})`, reason: `its content (assets/uploads/${fileName}) is not in the archive` });
    }
  }

  /** `report`: name the links to files the archive does not hold (once: in the first pass). */
  private mediaOf = (ownerUid: string, row: Dict, field: string, report = true): string[] => {
    const links = (this.media.get(rowKey(ownerUid, row.id)) ?? []).filter((l) => l.field === field).sort(byPosition);
    return links.flatMap((l) => {
      const file = this.filesById.get(l.file);
      if (!file && report) this.skipped.push({ what: `${ownerUid} row ${String(row.id)} ${field}`, reason: `links file ${l.file}, which is not in the archive` });
      return file ? [file.documentId] : [];
    });
  };

  async *versions(): AsyncGenerator<VersionRecord> {
    await this.prepare();
    const attributesSeen = new Set<string>();
    const notInModel = new Map<string, number>();
    for await (const { type, id, data } of this.entities(isContentType)) {
      const schema = this.model.contentTypes[type] as Dict | undefined;
      const localized = ((schema?.pluginOptions as Dict | undefined)?.i18n as Dict | undefined)?.localized === true;
      countFound(this.found, type, schema && !localized ? null : str(data.locale), schema, data);
      if (!schema) {
        notInModel.set(type, (notInModel.get(type) ?? 0) + 1);
        continue;
      }
      if (!attributesSeen.has(type)) this.skipped.push(...unsupportedAttributes(this.model, type, attributesSeen));
      const documentId = str(data.documentId);
      if (!documentId) {
        this.skipped.push({ what: `${type} row ${id}`, reason: 'has no documentId (not a Strapi 5 entry)' });
        continue;
      }
      const draftAndPublish = (schema.options as Dict | undefined)?.draftAndPublish === true;
      const status = !draftAndPublish || data.publishedAt ? 'published' : 'draft';
      const key: VersionKey = { documentId, locale: localized ? str(data.locale) : null, status };
      this.versionOfRow.set(rowKey(type, id), key);
      const noteComponentRelations: ComponentRelationsOf = (component, row) => {
        if (this.componentLinks.has(rowKey(component, row.id))) this.withComponentRelations.add(rowKey(type, id));
        return undefined;
      };
      yield {
        uid: type, ...key, data: bodyOf(this.model, type, { ...data, id: Number(id) }, this.mediaOf, noteComponentRelations),
        createdAt: str(data.createdAt), updatedAt: str(data.updatedAt), publishedAt: status === 'published' ? str(data.publishedAt) : null,
      };
    }
    for (const [type, n] of notInModel) {
      this.skipped.push({ what: `${n} ${n === 1 ? 'entry' : 'entries'} of ${type}`, reason: 'the type is not in the project folder\'s model' });
    }
  }

  async *componentRelationVersions(): AsyncGenerator<VersionRecord & { links: number }> {
    if (this.withComponentRelations.size === 0) return;
    const ignoreMedia: MediaOf = (ownerUid, row, field) => this.mediaOf(ownerUid, row, field, false);
    for await (const { type, id, data } of this.entities((t) => this.model.contentTypes[t] !== undefined)) {
      const key = this.versionOfRow.get(rowKey(type, id));
      if (!key || !this.withComponentRelations.has(rowKey(type, id))) continue;
      let count = 0;
      const relationsOf: ComponentRelationsOf = (component, row, field) => {
        const links = this.componentLinks.get(rowKey(component, row.id))?.get(field);
        if (!links) return [];
        const targets = links.sort(byPosition).flatMap((l): RelationTarget[] => {
          const target = this.versionOfRow.get(l.target);
          if (!target) {
            this.skipped.push({ what: `${type} ${key.documentId} (${key.locale ?? '-'}, ${key.status}) ${component} ${field}`, reason: `links ${l.target.replace('\0', ' row ')}, which is not among the imported entries` });
            return [];
          }
          return [{ documentId: target.documentId, locale: target.locale }];
        });
        count += targets.length;
        return targets;
      };
      const body = bodyOf(this.model, type, { ...data, id: Number(id) }, ignoreMedia, relationsOf);
      yield {
        uid: type, ...key, data: body, links: count,
        createdAt: str(data.createdAt), updatedAt: str(data.updatedAt), publishedAt: key.status === 'published' ? str(data.publishedAt) : null,
      };
    }
  }

  async *relations(): AsyncGenerator<RelationRecord> {
    // Links of one source row are grouped here (the export does not promise any order); those
    // with a place on the inverse side (`right.pos`: the target's `mappedBy` list is ordered) by
    // attribute and target row too, to rank them there.
    const bySource = new Map<string, Map<string, OwnerLink[]>>();
    const byTarget = new Map<string, OwnerLink[]>();
    await readArchive(this.path, {
      line: (stage, link) => {
        if (stage !== 'links' || !this.isOwnerLink(link)) return;
        const left = link.left as Required<LinkEnd>;
        const right = link.right as Required<LinkEnd>;
        const source = rowKey(left.type, left.ref);
        const fields = bySource.get(source) ?? new Map<string, OwnerLink[]>();
        const list = fields.get(left.field) ?? [];
        const owned: OwnerLink = { pos: Number(left.pos ?? 0), seq: this.seq++, target: rowKey(right.type, right.ref) };
        list.push(owned);
        fields.set(left.field, list);
        bySource.set(source, fields);
        if (typeof right.pos === 'number') {
          owned.inversePos = right.pos;
          const key = `${left.type}\0${left.field}\0${owned.target}`;
          const ranked = byTarget.get(key) ?? [];
          ranked.push(owned);
          byTarget.set(key, ranked);
        }
      },
    }, ['links']);
    // Ranks, not Strapi's positions: those are floating point (a link placed between two others
    // takes 1.5), the platform's are whole numbers.
    for (const links of byTarget.values()) {
      links.sort((a, b) => a.inversePos! - b.inversePos! || a.seq - b.seq).forEach((l, i) => { l.inverseRank = i + 1; });
    }
    for (const [source, fields] of bySource) {
      const key = this.versionOfRow.get(source);
      const [uid, ref] = source.split('\0') as [string, string];
      if (!key) {
        this.skipped.push({ what: `relations of ${uid} row ${ref}`, reason: 'the row is not among the imported entries' });
        continue;
      }
      const relations: RelationRecord['relations'] = {};
      for (const [field, links] of fields) {
        relations[field] = links.sort(byPosition).flatMap((l) => {
          const target = this.versionOfRow.get(l.target);
          if (!target) {
            this.skipped.push({ what: `${uid} ${key.documentId} (${key.locale ?? '-'}, ${key.status}) ${field}`, reason: `links ${l.target.replace('\0', ' row ')}, which is not among the imported entries` });
            return [];
          }
          return [{ documentId: target.documentId, locale: target.locale, ...(l.inverseRank ? { inversePosition: l.inverseRank } : {}) }];
        }).filter((t, i, all) => all.findIndex((x) => x.documentId === t.documentId && x.locale === t.locale) === i);
      }
      yield { uid, ...key, relations };
    }
  }
}
