// The platform as an in-process import writes to it (@cms/strapi-import's runImport, restoring a
// project from an archive without HTTP): one existing project, through the same functions as the
// /v1 routes — the schema, locales and roles services, and the import routes' import-actions.ts.
// Creating the project is the caller's job.
import { CONTROL_CLUSTER } from '@cms/config';
import { onCluster } from '@cms/db';
import { NotFoundError, ValidationError } from '@cms/errors';
import type { WriteOrigin } from '@cms/documents';
import type { ImportTarget, TargetProject } from '@cms/strapi-import';
import { toRawModel, type ProjectRecord } from '@cms/tenancy';
import type { Platform } from '../platform.ts';
import { projectRoleChanges } from '../project-roles.ts';
import { importDocumentsBatch, importedFileId, importRelationsBatch, importUsersBatch, storeImportedFile } from './import-actions.ts';
import { ROLE_TYPE } from './roles.ts';

const roleType = new RegExp(ROLE_TYPE);

export interface ServerImportOptions {
  /** Whose prefix the files are stored under (default: the project's; a staged project's: the project it will become). */
  mediaProjectId?: number;
  /** What content history records the import's versions as (default: an import by no one in particular). */
  origin?: WriteOrigin;
}

export function serverImportTarget(platform: Platform, project: ProjectRecord, options: ServerImportOptions = {}): ImportTarget {
  const origin = options.origin ?? { origin: 'import', createdBy: null };
  /** The project as it is now (a model push or a new locale changes its record). */
  const current = async (): Promise<ProjectRecord> => {
    const tenant = await platform.registry.resolve(project.slug);
    if (!tenant) throw new NotFoundError();
    return tenant.project;
  };
  /** `fn` on the current project, on its cluster as a management request runs (index.ts: tenantPool). */
  const on = <T>(fn: (p: ProjectRecord) => Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => {
    const run = () => { current().then(fn).then(resolve, reject); };
    if (project.cluster === CONTROL_CLUSTER) run();
    else onCluster(project.cluster, run);
  });
  const target: TargetProject = {
    slug: project.slug,
    modelVersion: () => on(async (p) => (await platform.models.current(p.id)).version),
    planModel: (model, expectedVersion) => on(async (p) => {
      const { changed, changes } = await platform.models.rehearse(p, toRawModel(model), { expectedVersion });
      return { changed, destructive: changes.some((c) => c.destructive) };
    }),
    pushModel: (model, expectedVersion) => on(async (p) => {
      await platform.models.push(p, toRawModel(model), { expectedVersion });
    }),
    localeCodes: () => on(async (p) => (await platform.locales.list(p.id)).map((l) => l.code)),
    addLocale: (code) => on(async (p) => {
      await platform.locales.add(p, { code });
    }),
    roleTypes: () => on(async (p) => (await platform.roles.list(p.id)).map((r) => r.type)),
    addRole: (role) => on(async (p) => {
      if (!roleType.test(role.type)) throw new ValidationError(`role type ${role.type} must match ${ROLE_TYPE}`);
      await projectRoleChanges(platform, p).create(role);
    }),
    importUsers: (users) => on(async (p) => {
      await importUsersBatch(platform, p, { users });
    }),
    fileId: (documentId) => on((p) => importedFileId(platform, p, documentId)),
    putFile: (file) => on(async (p) => {
      const { id } = await storeImportedFile(platform, p, file.documentId, file.body, {
        name: file.name, mime: file.mime, info: file.fileInfo, createdAt: file.createdAt ?? undefined, updatedAt: file.updatedAt ?? undefined,
      }, options.mediaProjectId);
      return id;
    }),
    importDocuments: (documents) => on(async (p) => {
      await importDocumentsBatch(platform, p, { documents }, origin);
    }),
    importRelations: (relations) => on(async (p) => {
      await importRelationsBatch(platform, p, { relations }, origin);
    }),
  };
  // Bound to the given project: never another, never a new one.
  return { project: async () => ({ project: target, created: false }) };
}
