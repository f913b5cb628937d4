// The platform as `cms import strapi` reaches it: the /v1 routes of the management API (projects,
// schema, locales, roles) and its import routes (docs/import-strapi.md), with the CLI's typed client
// (a file's bytes go through its streaming `upload`).
import type { FilesModel } from '@cms/schema/strapi-files';
import type { ImportTarget, TargetProject } from '@cms/strapi-import';
import { ApiError, dataOf, type Client } from '../client.ts';
import { CliError } from '../context.ts';

const notFound = (err: unknown): null => {
  if (err instanceof ApiError && err.status === 404) return null;
  throw err;
};

export function httpImportTarget(api: Client): ImportTarget {
  return {
    async project(slug, { name, defaultLocale }) {
      if (slug) {
        const found = await dataOf(api.v1.GET('/v1/projects/{slug}', { params: { path: { slug } } })).catch(notFound);
        if (!found) throw new CliError(`There is no project ${slug} that this account can import into.`);
        return { project: projectTarget(api, found.project.slug), created: false };
      }
      const { project } = await dataOf(api.v1.POST('/v1/projects', { body: { name, ...(defaultLocale ? { defaultLocale } : {}) } }));
      return { project: projectTarget(api, project.slug), created: true };
    },
  };
}

function projectTarget(api: Client, slug: string): TargetProject {
  const path = (rest: string) => `/v1/projects/${encodeURIComponent(slug)}${rest}`;
  const schemaBody = (model: FilesModel, expectedVersion: number) => ({ ...model, expectedVersion });
  const params = { path: { slug } };
  return {
    slug,
    modelVersion: async () => (await dataOf(api.v1.GET('/v1/projects/{slug}/schema', { params }))).version,
    planModel: (model, expectedVersion) => dataOf(api.v1.POST('/v1/projects/{slug}/schema/plan', { params, body: schemaBody(model, expectedVersion) })),
    pushModel: async (model, expectedVersion) => {
      await dataOf(api.v1.PUT('/v1/projects/{slug}/schema', { params, body: schemaBody(model, expectedVersion) }));
    },
    localeCodes: async () => (await dataOf(api.v1.GET('/v1/projects/{slug}/locales', { params }))).locales.map((l) => l.code),
    addLocale: async (code) => {
      await dataOf(api.v1.POST('/v1/projects/{slug}/locales', { params, body: { code } }));
    },
    roleTypes: async () => (await dataOf(api.v1.GET('/v1/projects/{slug}/roles', { params }))).roles.map((r) => r.type),
    addRole: async (role) => {
      await dataOf(api.v1.POST('/v1/projects/{slug}/roles', { params, body: role }));
    },
    importUsers: async (users) => {
      await dataOf(api.v1.POST('/v1/projects/{slug}/import/users', { params, body: { users } }));
    },
    fileId: async (documentId) =>
      (await dataOf(api.v1.GET('/v1/projects/{slug}/import/files/{documentId}', { params: { path: { slug, documentId } } })).catch(notFound))?.id ?? null,
    putFile: async (file) => {
      const query = new URLSearchParams({ name: file.name, mime: file.mime, fileInfo: JSON.stringify(file.fileInfo) });
      if (file.createdAt) query.set('createdAt', file.createdAt);
      if (file.updatedAt) query.set('updatedAt', file.updatedAt);
      const stored = await api.upload<{ id: number }>('PUT', path(`/import/files/${encodeURIComponent(file.documentId)}?${query}`),
        file.body, { 'content-type': 'application/octet-stream' });
      return stored.id;
    },
    importDocuments: async (documents) => {
      await dataOf(api.v1.POST('/v1/projects/{slug}/import/documents', { params, body: { documents } }));
    },
    importRelations: async (relations) => {
      await dataOf(api.v1.POST('/v1/projects/{slug}/import/relations', { params, body: { relations } }));
    },
  };
}
