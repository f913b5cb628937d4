// The media library's parts that Strapi's content API does not have: folders (create, rename,
// move, delete), a listing of files by folder, and where a file is used. Uploads, info changes
// (`fileInfo.folder` too) and deletes of files go through the project's upload API.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '@cms/errors';
import { mediaRoutes as schemas } from '@cms/management-api';
import {
  createFolder, fileUsages, findFolder, folderNotFound, listFiles, listFolders, parseFileListQuery, parseFolderChange,
  parseNewFolder, pathId, updateFolder,
} from '@cms/media';
import type { ManagementOptions } from './options.ts';
import { projectOf } from './request-context.ts';

// Bodies and the listing's query are parsed by @cms/media, which names a bad field in its own words:
// the schema's verdict is attached (attachValidation) and left to it.
const PARSED_HERE = { attachValidation: true } as const;

interface IdRoute {
  Params: { slug: string; id: string };
}

export async function mediaRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  const pool = platform.db.tenantPool;

  /** The project's runtime (schema and physical model) and where its files live. */
  async function mediaOf(request: FastifyRequest) {
    const project = projectOf(request);
    const runtime = await platform.runtimes.get(project);
    return { runtime, schema: runtime.schemaName, files: { projectId: project.id, schema: runtime.schemaName } };
  }

  app.get('/projects/:slug/media/folders', { schema: schemas.listFolders }, async (request) => {
    const { schema } = await mediaOf(request);
    return { folders: await listFolders(pool, schema) };
  });

  app.post('/projects/:slug/media/folders', { schema: schemas.createFolder, ...PARSED_HERE }, async (request, reply) => {
    const input = parseNewFolder(request.body);
    const { schema } = await mediaOf(request);
    const folder = await pool.transaction((tx) => createFolder(tx, schema, input));
    return reply.status(201).send({ folder });
  });

  app.patch<IdRoute>('/projects/:slug/media/folders/:id', { schema: schemas.updateFolder, ...PARSED_HERE }, async (request) => {
    const id = pathId(request.params.id);
    const change = parseFolderChange(request.body);
    const { schema } = await mediaOf(request);
    return { folder: await pool.transaction((tx) => updateFolder(tx, schema, id, change)) };
  });

  // As in Strapi, its sub-folders and every file in them are deleted with it.
  app.delete<IdRoute>('/projects/:slug/media/folders/:id', { schema: schemas.deleteFolder }, async (request, reply) => {
    const id = pathId(request.params.id);
    const { files } = await mediaOf(request);
    await platform.media.removeFolder(pool, files, id);
    return reply.status(204).send();
  });

  app.get('/projects/:slug/media/files', { schema: schemas.listFiles, ...PARSED_HERE }, async (request) => {
    const query = parseFileListQuery(request.query as Record<string, unknown>);
    const { schema } = await mediaOf(request);
    if (query.folder !== undefined && query.folder !== 'root' && !(await findFolder(pool, schema, query.folder))) throw folderNotFound();
    return listFiles(pool, schema, query);
  });

  app.get<IdRoute>('/projects/:slug/media/files/:id/usages', { schema: schemas.fileUsages }, async (request) => {
    const id = pathId(request.params.id);
    const { runtime, schema } = await mediaOf(request);
    if (!(await platform.media.findRow(pool, schema, id))) throw new NotFoundError('file.notFound');
    return { usages: await fileUsages(pool, schema, runtime.physical, id) };
  });
}
