// The platform as `cms import strapi` reaches it: the /v1 routes of the management API (projects,
// schema, locales, roles) and its import routes (docs/import-strapi.md), with the CLI's client.
import type { FilesModel } from '@cms/schema/strapi-files';
import type { ImportTarget, TargetProject } from '@cms/strapi-import';
import { ApiError, type Client } from '../client.ts';
import { CliError } from '../context.ts';

const notFound = (err: unknown): null => {
  if (err instanceof ApiError && err.status === 404) return null;
  throw err;
};

export function httpImportTarget(api: Client): ImportTarget {
  return {
    async project(slug, { name, defaultLocale }) {
      if (slug) {
        const found = await api.get<{ project: { slug: string } }>(`/v1/projects/${encodeURIComponent(slug)}`).catch(notFound);
        if (!found) throw new CliError(`There is no project ${slug} that this account can import into.`);
        return { project: projectTarget(api, found.project.slug), created: false };
      }
      const { project } = await api.post<{ project: { slug: string } }>('/v1/projects', { name, ...(defaultLocale ? { defaultLocale } : {}) });
      return { project: projectTarget(api, project.slug), created: true };
    },
  };
}

function projectTarget(api: Client, slug: string): TargetProject {
  const path = (rest: string) => `/v1/projects/${encodeURIComponent(slug)}${rest}`;
  const schemaBody = (model: FilesModel, expectedVersion: number) => ({ ...model, expectedVersion });
  return {
    slug,
    modelVersion: async () => (await api.get<{ version: number }>(path('/schema'))).version,
    planModel: (model, expectedVersion) => api.post<{ changed: boolean; destructive: boolean }>(path('/schema/plan'), schemaBody(model, expectedVersion)),
    pushModel: async (model, expectedVersion) => {
      await api.put(path('/schema'), schemaBody(model, expectedVersion));
    },
    localeCodes: async () => (await api.get<{ locales: Array<{ code: string }> }>(path('/locales'))).locales.map((l) => l.code),
    addLocale: async (code) => {
      await api.post(path('/locales'), { code });
    },
    roleTypes: async () => (await api.get<{ roles: Array<{ type: string }> }>(path('/roles'))).roles.map((r) => r.type),
    addRole: async (role) => {
      await api.post(path('/roles'), role);
    },
    importUsers: async (users) => {
      await api.post(path('/import/users'), { users });
    },
    fileId: async (documentId) => (await api.get<{ id: number }>(path(`/import/files/${encodeURIComponent(documentId)}`)).catch(notFound))?.id ?? null,
    putFile: async (file) => {
      const query = new URLSearchParams({ name: file.name, mime: file.mime, fileInfo: JSON.stringify(file.fileInfo) });
      if (file.createdAt) query.set('createdAt', file.createdAt);
      if (file.updatedAt) query.set('updatedAt', file.updatedAt);
      const stored = await api.upload<{ id: number }>('PUT', path(`/import/files/${encodeURIComponent(file.documentId)}?${query}`),
        file.body, { 'content-type': 'application/octet-stream' });
      return stored.id;
    },
    importDocuments: async (documents) => {
      await api.post(path('/import/documents'), { documents });
    },
    importRelations: async (relations) => {
      await api.post(path('/import/relations'), { relations });
    },
  };
}
