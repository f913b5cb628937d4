// `cms import strapi`: the stages, in order — model, locales, roles, users, files, documents,
// relations, relations inside components — each sending batches to the platform's import API (docs/import-strapi.md). The
// source (an export archive or a running Strapi) is read as a stream; the state file makes a
// second run after an interruption skip what was done, and the API's idempotent upserts make
// anything sent twice harmless.
import type { FilesModel } from '@cms/schema/strapi-files';
import { ApiError, type Client } from '../client.ts';
import { CliError } from '../context.ts';
import { withFileIds } from './document-data.ts';
import { stageProgress } from './progress.ts';
import { ImportReport } from './report.ts';
import type { ImportSource, RelationRecord, UserRecord, VersionRecord } from './source.ts';
import type { BatchStage, StateFile } from './state.ts';

export interface ImportOptions {
  api: Client;
  model: FilesModel;
  /** The content to import; null: the model only. */
  source: ImportSource | null;
  state: StateFile;
  /** The project's name when one is created. */
  projectName: string;
  batchSize: number;
  /** Apply a destructive model change to an existing project without asking. */
  yes: boolean;
}

interface Project {
  slug: string;
  defaultLocale: string;
}

const path = (slug: string, rest: string) => `/v1/projects/${encodeURIComponent(slug)}${rest}`;
const BUILTIN_ROLES = new Set(['public', 'authenticated']);

/** Items of an async stream in batches of `size`. */
async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export async function runImport(o: ImportOptions): Promise<ImportReport> {
  const report = new ImportReport();
  const { api, state, source } = o;
  const { codes, defaultLocale } = source ? await source.locales() : { codes: [], defaultLocale: null };
  const project = await projectFor(o, defaultLocale);
  report.project = project.slug;
  await pushModel(o, project);
  if (source) {
    const content = { ...o, source };
    await addLocales(api, project, codes);
    await addRoles(content, project);
    const totals = await source.totals();
    await importUsers(content, project, report, totals.users);
    await importFiles(content, project, report, totals.files);
    await importDocuments(content, project, report, totals.documents);
    await importRelations(content, project, report, totals.relations);
    await importComponentRelations(content, project, report);
    for (const [key, n] of source.found) {
      const [type, locale, status] = key.split('\0') as [string, string, string];
      report.addFound(type, locale || null, status || null, n);
    }
    report.skipped.push(...source.skipped);
  }
  await state.remove();
  return report;
}

/** The options of a run that imports content. */
type ContentImport = ImportOptions & { source: ImportSource };

async function projectFor(o: ImportOptions, defaultLocale: string | null): Promise<Project> {
  const slug = o.state.state.project;
  if (slug) {
    const { project } = await o.api.get<{ project: Project }>(path(slug, '')).catch((err: unknown) => {
      if (err instanceof ApiError && err.status === 404) throw new CliError(`There is no project ${slug} that this account can import into.`);
      throw err;
    });
    return project;
  }
  const { project } = await o.api.post<{ project: Project }>('/v1/projects', { name: o.projectName, ...(defaultLocale ? { defaultLocale } : {}) });
  o.state.state.project = project.slug;
  await o.state.save();
  process.stderr.write(`Created the project ${project.slug}\n`);
  return project;
}

async function pushModel(o: ImportOptions, project: Project): Promise<void> {
  const { version } = await o.api.get<{ version: number }>(path(project.slug, '/schema'));
  const body = { ...o.model, expectedVersion: version };
  const plan = await o.api.post<{ changed: boolean; destructive: boolean }>(path(project.slug, '/schema/plan'), body);
  if (!plan.changed) return;
  if (plan.destructive && !o.yes) {
    throw new CliError(`Importing this model into ${project.slug} would delete data stored there: nothing was changed. Import into a new project (leave out --project), or pass --yes.`);
  }
  await o.api.put(path(project.slug, '/schema'), body);
  process.stderr.write(`model: ${Object.keys(o.model.contentTypes).length} content types, ${Object.keys(o.model.components).length} components\n`);
}

async function addLocales(api: Client, project: Project, codes: string[]): Promise<void> {
  const { locales } = await api.get<{ locales: Array<{ code: string }> }>(path(project.slug, '/locales'));
  const have = new Set(locales.map((l) => l.code));
  for (const code of codes) if (!have.has(code)) await api.post(path(project.slug, '/locales'), { code });
}

async function addRoles(o: ContentImport, project: Project): Promise<void> {
  const { roles } = await o.api.get<{ roles: Array<{ type: string }> }>(path(project.slug, '/roles'));
  const have = new Set(roles.map((r) => r.type));
  for (const role of await o.source.roles()) {
    if (have.has(role.type) || BUILTIN_ROLES.has(role.type)) continue;
    await o.api.post(path(project.slug, '/roles'), { type: role.type, name: role.name, ...(role.description ? { description: role.description } : {}) });
  }
}

/**
 * Send `items` in batches, skipping the batches the state file says were completed. `prepare`
 * sees every batch, sent or skipped (so the report counts what an earlier run sent too), and
 * gives what `send` sends.
 */
async function sendBatches<T, P>(
  o: ContentImport, stage: BatchStage, items: AsyncIterable<T>, total: number | null,
  prepare: (batch: T[]) => P, send: (prepared: P) => Promise<void>,
): Promise<number> {
  const progress = stageProgress(stage === 'componentRelations' ? 'component relations' : stage, total);
  const skip = o.state.state.done[stage] ?? 0;
  let index = 0;
  let count = 0;
  for await (const batch of batches(items, o.batchSize)) {
    const prepared = prepare(batch);
    if (index >= skip) {
      await send(prepared);
      o.state.state.done[stage] = index + 1;
      await o.state.save();
    }
    index++;
    count += batch.length;
    progress.update(count);
  }
  progress.stop(`${count} imported${skip ? ` (${Math.min(skip, index)} batches were done before)` : ''}`);
  return count;
}

async function importUsers(o: ContentImport, project: Project, report: ImportReport, total: number | null): Promise<void> {
  const route = path(project.slug, '/import/users');
  await sendBatches(o, 'users', o.source.users(), total, (users: UserRecord[]) => {
    for (const u of users) {
      report.count('users', null, 'imported');
      if (u.password === null) report.skipped.push({ what: `password of user ${u.email}`, reason: 'not available from the source: the user must reset it' });
    }
    return users;
  }, async (users) => {
    await o.api.post(route, { users });
  });
}

async function importFiles(o: ContentImport, project: Project, report: ImportReport, total: number | null): Promise<void> {
  const progress = stageProgress('files', total);
  const ids = o.state.state.fileIds;
  let count = 0;
  for await (const file of o.source.files()) {
    if (ids[file.documentId] === undefined) {
      const known = await o.api.get<{ id: number }>(path(project.slug, `/import/files/${encodeURIComponent(file.documentId)}`))
        .catch((err: unknown) => { if (err instanceof ApiError && err.status === 404) return null; throw err; });
      if (known) {
        file.body.resume();
        ids[file.documentId] = known.id;
      } else {
        const query = new URLSearchParams({
          name: file.name, mime: file.mime,
          fileInfo: JSON.stringify({ alternativeText: file.alternativeText, caption: file.caption }),
        });
        if (file.createdAt) query.set('createdAt', file.createdAt);
        if (file.updatedAt) query.set('updatedAt', file.updatedAt);
        const stored = await o.api.upload<{ id: number }>('PUT', path(project.slug, `/import/files/${encodeURIComponent(file.documentId)}?${query}`),
          file.body, { 'content-type': 'application/octet-stream' });
        ids[file.documentId] = stored.id;
      }
      await o.state.save();
    } else {
      file.body.resume();
    }
    report.count('files', null, 'imported');
    progress.update(++count);
  }
  progress.stop(`${count} imported`);
}

async function importDocuments(o: ContentImport, project: Project, report: ImportReport, total: number | null): Promise<void> {
  const route = path(project.slug, '/import/documents');
  const fileIds = new Map(Object.entries(o.state.state.fileIds));
  const prepare = (v: VersionRecord) => ({
    ...v,
    data: withFileIds(o.model, v.uid, v.data, fileIds, (documentId, field) => report.skipped.push({
      what: `${v.uid} ${v.documentId} (${v.locale ?? '-'}, ${v.status}) ${field}`, reason: `links file ${documentId}, which was not imported`,
    })),
  });
  await sendBatches(o, 'documents', o.source.versions(), total, (versions: VersionRecord[]) => {
    for (const v of versions) report.count(v.uid, v.locale, 'imported', v.status);
    return versions.map(prepare);
  }, async (documents) => {
    await o.api.post(route, { documents });
  });
}

async function importRelations(o: ContentImport, project: Project, report: ImportReport, total: number | null): Promise<void> {
  const route = path(project.slug, '/import/relations');
  await sendBatches(o, 'relations', o.source.relations(), total, (relations: RelationRecord[]) => {
    for (const r of relations) report.links += Object.values(r.relations).reduce((n, l) => n + l.length, 0);
    return relations;
  }, async (relations) => {
    await o.api.post(route, { relations });
  });
}

/**
 * The versions whose components hold relations, sent whole again now that every target exists
 * (the documents stage left those relations out); nothing to do in most projects.
 */
async function importComponentRelations(o: ContentImport, project: Project, report: ImportReport): Promise<void> {
  const route = path(project.slug, '/import/documents');
  const fileIds = new Map(Object.entries(o.state.state.fileIds));
  const versions = o.source.componentRelationVersions()[Symbol.asyncIterator]();
  const first = await versions.next();
  if (first.done) return;
  async function* all(): AsyncGenerator<VersionRecord & { links: number }> {
    yield first.value;
    for (let next = await versions.next(); !next.done; next = await versions.next()) yield next.value;
  }
  await sendBatches(o, 'componentRelations', all(), null, (batch: Array<VersionRecord & { links: number }>) => batch.map(({ links, ...v }) => {
    report.links += links;
    // Files the documents stage found missing were reported there.
    return { ...v, data: withFileIds(o.model, v.uid, v.data, fileIds, () => {}) };
  }), async (documents) => {
    await o.api.post(route, { documents });
  });
}
