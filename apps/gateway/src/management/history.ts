// Content history (management-api.md § Content history, docs/history.md): the versions every
// write records, listed and read by any member, compared with each other or with the current
// document, and restored by owners and editors (a PUT: viewers get 403 from access.ts). Versions
// live in the project's own schema, so another project's version ids name nothing here (404).
// End users and API tokens never reach these routes: /v1 takes a member's session only.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashPassword } from '@cms/auth';
import {
  currentVersionData, diffVersionData, findVersion, historyVersionId, listVersions, parseHistoryListQuery, previousVersion, restoreVersion,
  type DiffSchema, type HistoryAuthor, type HistoryVersion, type RawAttribute,
} from '@cms/documents';
import { NotFoundError, ValidationError } from '@cms/errors';
import { historyRoutes as schemas } from '@cms/management-api';
import type { ProjectRuntime } from '@cms/tenancy';
import { usernamesOf } from '@cms/users';
import { documentEvents } from '../webhook-events.ts';
import { auditWhoOf } from '../audit/audit-context.ts';
import type { ManagementOptions } from './options.ts';
import { memberOrigin, projectOf } from './request-context.ts';

interface VersionRoute {
  Params: { slug: string; versionId: string };
}

/** `createdBy` as answered: who it was and what to call them now (null once they are gone). */
interface NamedAuthor extends HistoryAuthor {
  name: string | null;
}

// Queries and the restore's (empty) body are checked here, in this module's words: the schema's
// verdict is attached (attachValidation) and left to the handlers.
const PARSED_HERE = { attachValidation: true } as const;

const versionNotFound = () => new NotFoundError('history.versionNotFound');

/** A body of no options: none, or an empty object (the route takes none yet, and says so). */
function assertNoOptions(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('The body must be a JSON object');
  const [key] = Object.keys(body);
  if (key !== undefined) throw new ValidationError(`Unknown key ${key.slice(0, 100)}`, { key: key.slice(0, 100) });
}

export async function historyRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const pool = platform.db.tenantPool;

  async function projectRuntime(request: FastifyRequest) {
    const project = projectOf(request);
    return { project, runtime: await platform.runtimes.get(project) };
  }

  /** The versions with their authors named: one lookup per kind of author, whatever the page size. */
  async function withAuthors(projectId: number, runtime: ProjectRuntime, versions: HistoryVersion[]) {
    const idsOf = (type: HistoryAuthor['type']) =>
      [...new Set(versions.flatMap((v) => (v.createdBy?.type === type ? [String(v.createdBy.id)] : [])))].filter((id) => /^\d{1,15}$/.test(id));
    const [accounts, tokens, users] = await Promise.all([
      platform.accounts.displayNames(idsOf('account').map(Number)),
      platform.apiTokens.names(projectId, idsOf('apiToken').map(Number)),
      usernamesOf(pool, runtime.schemaName, idsOf('user')),
    ]);
    const nameOf = (author: HistoryAuthor): string | null => {
      const id = String(author.id);
      const name = author.type === 'account' ? accounts.get(Number(id)) : author.type === 'apiToken' ? tokens.get(Number(id)) : users.get(id);
      return name ?? null;
    };
    return versions.map((v) => ({
      id: v.id, contentType: v.contentType, relatedDocumentId: v.relatedDocumentId, locale: v.locale, status: v.status,
      data: v.data, schema: v.schema, origin: v.origin, createdAt: v.createdAt,
      createdBy: v.createdBy === null ? null : ({ type: v.createdBy.type, id: v.createdBy.id, name: nameOf(v.createdBy) } satisfies NamedAuthor),
    }));
  }

  async function versionOf(request: FastifyRequest<VersionRoute>) {
    const { project, runtime } = await projectRuntime(request);
    const id = historyVersionId(request.params.versionId);
    const version = await findVersion(pool, runtime.schemaName, id);
    if (!version) throw versionNotFound();
    return { project, runtime, version };
  }

  app.get('/projects/:slug/history', { schema: schemas.list, ...PARSED_HERE }, async (request) => {
    const { project, runtime } = await projectRuntime(request);
    const query = parseHistoryListQuery(request.query as Record<string, unknown>);
    const page = await listVersions(pool, runtime.schemaName, query);
    // A type the model does not have is unknown, unless versions of it are left (a deleted type's).
    if (query.contentType !== undefined && !runtime.model.contentTypes[query.contentType] && page.pagination.total === 0) {
      throw new NotFoundError('history.contentTypeNotFound', { contentType: query.contentType });
    }
    return { data: await withAuthors(project.id, runtime, page.versions), meta: { pagination: page.pagination } };
  });

  app.get<VersionRoute>('/projects/:slug/history/:versionId', { schema: schemas.get }, async (request) => {
    const { project, runtime, version } = await versionOf(request);
    const [named] = await withAuthors(project.id, runtime, [version]);
    return { data: named };
  });

  // `against`: another version's id, `current` (the document now: its draft on a draft & publish
  // type; nothing once deleted) or `previous` (default: the version before it of the same document-locale).
  app.get<VersionRoute & { Querystring: Record<string, unknown> }>('/projects/:slug/history/:versionId/diff', { schema: schemas.diff, ...PARSED_HERE }, async (request) => {
    const raw = request.query.against ?? 'previous';
    const extra = Object.keys(request.query).find((k) => k !== 'against');
    if (extra !== undefined) throw ValidationError.fromFieldErrors([{ path: [extra.slice(0, 100)], message: `${extra.slice(0, 100)} is not a valid key`, name: 'ValidationError' }]);
    if (typeof raw !== 'string') throw ValidationError.fromFieldErrors([{ path: ['against'], message: 'against must be given once, as text', name: 'ValidationError' }]);
    const { runtime, version } = await versionOf(request);
    const schema = runtime.schemaName;
    const current = ((runtime.model.contentTypes[version.contentType]?.raw as { attributes?: Record<string, unknown> } | undefined)?.attributes) ?? {};
    let against: number | 'current' | null;
    let before: Record<string, unknown> | null;
    let beforeSchema: Record<string, unknown>;
    if (raw === 'current') {
      before = await currentVersionData(pool, runtime.model, runtime.physical, schema, {
        uid: version.contentType, documentId: version.relatedDocumentId, locale: version.locale ?? projectOf(request).defaultLocale,
      });
      against = 'current';
      beforeSchema = current;
    } else {
      const other = raw === 'previous' ? await previousVersion(pool, schema, version) : await findVersion(pool, schema, historyAgainstId(raw));
      if (raw !== 'previous' && !other) throw new NotFoundError('history.againstNotFound');
      if (other && other.contentType !== version.contentType) throw ValidationError.fromFieldErrors([{ path: ['against'], message: 'against must be a version of the same content type', name: 'ValidationError' }]);
      against = other?.id ?? null;
      before = other?.data ?? null;
      beforeSchema = other?.schema ?? {};
    }
    const components: DiffSchema['components'] = {};
    for (const [uid, c] of Object.entries(runtime.model.components)) components[uid] = ((c.raw as { attributes?: Record<string, RawAttribute> }).attributes) ?? {};
    // Attributes either side was recorded with (the version's own wins), in the model's order where
    // it still has them: stored schemas are jsonb, which keeps no key order.
    const attributes: Record<string, RawAttribute> = {};
    for (const name of [...Object.keys(current), ...Object.keys(version.schema), ...Object.keys(beforeSchema)]) {
      attributes[name] ??= (version.schema[name] ?? beforeSchema[name] ?? current[name]) as RawAttribute;
    }
    const changes = diffVersionData(before, version.data, { attributes, components });
    return { data: { versionId: version.id, against, changes } };
  });

  app.put<VersionRoute>('/projects/:slug/history/:versionId/restore', { schema: schemas.restore, ...PARSED_HERE }, async (request) => {
    assertNoOptions(request.body);
    const { project, runtime, version } = await versionOf(request);
    const localeCodes = new Set((await platform.locales.list(project.id)).map((l) => l.code));
    const restored = await restoreVersion({
      pool, schema: runtime.schemaName, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale, hashPassword,
      admitDocument: platform.documentQuota.admission(project, runtime),
      emit: documentEvents(platform, project, runtime, auditWhoOf(request)),
      history: platform.config.contentHistory ? memberOrigin(request, 'restore') : null,
    }, version, localeCodes);
    return { data: { documentId: restored.documentId, locale: restored.locale, status: restored.status }, meta: { dropped: restored.dropped } };
  });
}

/** `against` as a version id: a positive integer (else a 400 naming `against`). */
function historyAgainstId(raw: string): string {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw ValidationError.fromFieldErrors([{ path: ['against'], message: 'against must be a version id, current or previous', name: 'ValidationError' }]);
  }
  return String(Number(raw));
}
