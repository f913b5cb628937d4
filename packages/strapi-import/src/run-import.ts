// A Strapi import's stages, in order — model, locales, roles, users, files, documents, relations,
// relations inside components — each writing batches to the target (the platform over HTTP for
// `cms import strapi`, in-process for the gateway; docs/import-strapi.md). The source (an export
// archive or a running Strapi) is read as a stream; the state makes a run after an interruption
// skip what was done, and the target's idempotent writes make anything sent twice harmless.
import type { FilesModel } from '@cms/schema/strapi-files';
import { withFileIds } from './document-data.ts';
import { ImportError } from './errors.ts';
import { ImportReport } from './report.ts';
import type { ImportSource, RelationRecord, UserRecord, VersionRecord } from './source.ts';
import { memoryState, type BatchStage, type ImportStateStore } from './state.ts';
import type { ImportTarget, TargetProject } from './target.ts';

/** How far one stage got, shown as the caller likes (the CLI: a bar on a terminal, else lines). */
export interface StageProgress {
  /** `done` items of the stage so far. */
  update(done: number): void;
  /** The stage ended: `summary` says what it did. */
  stop(summary: string): void;
}

export interface ImportOptions {
  target: ImportTarget;
  model: FilesModel;
  /** The content to import; null: the model only. */
  source: ImportSource | null;
  /** What earlier runs did (default: nothing, kept in memory for this run only). */
  state?: ImportStateStore;
  /** The project's name when one is created. */
  projectName: string;
  batchSize: number;
  /** Apply a destructive model change to an existing project without asking. */
  yes: boolean;
  /** A stage starts; `total`: its size when the source knows it in advance (default: not shown). */
  progress?(stage: string, total: number | null): StageProgress;
  /** A line about what was done: the project created, the model pushed (default: not shown). */
  log?(line: string): void;
}

/** The options of a run, defaults filled in. */
type Run = ImportOptions & Required<Pick<ImportOptions, 'state' | 'progress' | 'log'>>;

const unseen: StageProgress = { update: () => {}, stop: () => {} };

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

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const o: Run = {
    ...options,
    state: options.state ?? memoryState(null, options.batchSize),
    progress: options.progress ?? (() => unseen),
    log: options.log ?? (() => {}),
  };
  const report = new ImportReport();
  const { state, source } = o;
  const { codes, defaultLocale } = source ? await source.locales() : { codes: [], defaultLocale: null };
  const project = await projectFor(o, defaultLocale);
  report.project = project.slug;
  await pushModel(o, project);
  if (source) {
    const content = { ...o, source };
    await addLocales(project, codes);
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
type ContentImport = Run & { source: ImportSource };

async function projectFor(o: Run, defaultLocale: string | null): Promise<TargetProject> {
  const { project, created } = await o.target.project(o.state.state.project, { name: o.projectName, defaultLocale });
  if (created) {
    o.state.state.project = project.slug;
    await o.state.save();
    o.log(`Created the project ${project.slug}`);
  }
  return project;
}

async function pushModel(o: Run, project: TargetProject): Promise<void> {
  const version = await project.modelVersion();
  const plan = await project.planModel(o.model, version);
  if (!plan.changed) return;
  if (plan.destructive && !o.yes) {
    throw new ImportError(`Importing this model into ${project.slug} would delete data stored there: nothing was changed. Import into a new project (leave out --project), or pass --yes.`);
  }
  await project.pushModel(o.model, version);
  o.log(`model: ${Object.keys(o.model.contentTypes).length} content types, ${Object.keys(o.model.components).length} components`);
}

async function addLocales(project: TargetProject, codes: string[]): Promise<void> {
  const have = new Set(await project.localeCodes());
  for (const code of codes) if (!have.has(code)) await project.addLocale(code);
}

async function addRoles(o: ContentImport, project: TargetProject): Promise<void> {
  const have = new Set(await project.roleTypes());
  for (const role of await o.source.roles()) {
    if (have.has(role.type) || BUILTIN_ROLES.has(role.type)) continue;
    await project.addRole({ type: role.type, name: role.name, ...(role.description ? { description: role.description } : {}) });
  }
}

/**
 * Send `items` in batches, skipping the batches the state says were completed. `prepare` sees
 * every batch, sent or skipped (so the report counts what an earlier run sent too), and gives
 * what `send` sends.
 */
async function sendBatches<T, P>(
  o: ContentImport, stage: BatchStage, items: AsyncIterable<T>, total: number | null,
  prepare: (batch: T[]) => P, send: (prepared: P) => Promise<void>,
): Promise<number> {
  const progress = o.progress(stage === 'componentRelations' ? 'component relations' : stage, total);
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

async function importUsers(o: ContentImport, project: TargetProject, report: ImportReport, total: number | null): Promise<void> {
  await sendBatches(o, 'users', o.source.users(), total, (users: UserRecord[]) => {
    for (const u of users) {
      report.count('users', null, 'imported');
      if (u.password === null) report.skipped.push({ what: `password of user ${u.email}`, reason: 'not available from the source: the user must reset it' });
    }
    return users;
  }, (users) => project.importUsers(users));
}

async function importFiles(o: ContentImport, project: TargetProject, report: ImportReport, total: number | null): Promise<void> {
  const progress = o.progress('files', total);
  const ids = o.state.state.fileIds;
  let count = 0;
  for await (const file of o.source.files()) {
    if (ids[file.documentId] === undefined) {
      const known = await project.fileId(file.documentId);
      if (known !== null) {
        file.body.resume();
        ids[file.documentId] = known;
      } else {
        ids[file.documentId] = await project.putFile({
          documentId: file.documentId, body: file.body, name: file.name, mime: file.mime,
          fileInfo: { alternativeText: file.alternativeText, caption: file.caption }, createdAt: file.createdAt, updatedAt: file.updatedAt,
        });
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

async function importDocuments(o: ContentImport, project: TargetProject, report: ImportReport, total: number | null): Promise<void> {
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
  }, (documents) => project.importDocuments(documents));
}

async function importRelations(o: ContentImport, project: TargetProject, report: ImportReport, total: number | null): Promise<void> {
  await sendBatches(o, 'relations', o.source.relations(), total, (relations: RelationRecord[]) => {
    for (const r of relations) report.links += Object.values(r.relations).reduce((n, l) => n + l.length, 0);
    return relations;
  }, (relations) => project.importRelations(relations));
}

/**
 * The versions whose components hold relations, sent whole again now that every target exists
 * (the documents stage left those relations out); nothing to do in most projects.
 */
async function importComponentRelations(o: ContentImport, project: TargetProject, report: ImportReport): Promise<void> {
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
  }), (documents) => project.importDocuments(documents));
}
