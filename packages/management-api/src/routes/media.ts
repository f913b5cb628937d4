// The media library's parts that Strapi's content API does not have (`/v1/projects/{slug}/media…`):
// folders, a listing of files by folder, where a file is used. Uploads, info changes and deletes
// of files go through the project's upload API.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent, pageQuery, positiveId } from '../route.ts';
import { answerWith, dateTime, listOf, nullableDateTime, nullableInteger, nullableString } from '../shapes.ts';

/** A folder of the media library (Strapi's `plugin::upload.folder`). */
const MediaFolder = {
  type: 'object',
  required: ['id', 'name', 'parent', 'path', 'createdAt', 'updatedAt', 'fileCount'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    parent: { ...nullableInteger, description: 'The parent folder\'s id; null at the root' },
    path: { type: 'string', description: 'Ids from the root down (`/3/7`), as Strapi\'s folder path' },
    createdAt: dateTime,
    updatedAt: dateTime,
    fileCount: { type: 'integer', description: 'Files directly in the folder (not in its sub-folders)' },
  },
  examples: [{ id: 7, name: 'Covers', parent: 3, path: '/3/7', createdAt: '2026-11-23T06:00:00.000Z', updatedAt: '2026-11-23T06:00:00.000Z', fileCount: 12 }],
} as const;

/** One image format of a file (Strapi's), made from the upload. */
const ImageFormat = {
  type: 'object',
  required: ['url'],
  properties: {
    name: { type: 'string' },
    hash: { type: 'string' },
    ext: { type: 'string' },
    mime: { type: 'string' },
    path: nullableString,
    width: { type: 'integer' },
    height: { type: 'integer' },
    size: { type: 'number', description: 'In kB' },
    sizeInBytes: { type: 'integer' },
    url: { type: 'string' },
  },
  // Any other key of a stored format is answered as it is.
  additionalProperties: true,
} as const;

/** A file as the upload API answers it, plus the folder it is in. */
const MediaFile = {
  type: 'object',
  required: [
    'id', 'documentId', 'name', 'alternativeText', 'caption', 'focalPoint', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url',
    'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt', 'folder',
  ],
  properties: {
    id: { type: 'integer' },
    documentId: { type: 'string' },
    name: { type: 'string' },
    alternativeText: nullableString,
    caption: nullableString,
    focalPoint: {
      type: ['object', 'null'], required: ['x', 'y'], properties: { x: { type: 'number' }, y: { type: 'number' } },
      description: 'The image\'s focal point, `{x, y}` (the dashboard sets them in percent of its width and height); null when none was set',
    },
    width: nullableInteger,
    height: nullableInteger,
    formats: {
      type: ['object', 'null'], additionalProperties: ImageFormat,
      description: 'Image formats by name (`thumbnail`, `small`, `medium`, `large`); null until they are made, and for files that get none',
    },
    hash: { type: 'string' },
    ext: nullableString,
    mime: { type: 'string' },
    size: { type: 'number', description: 'In kB, as Strapi\'s' },
    url: { type: 'string' },
    previewUrl: nullableString,
    provider: { type: 'string' },
    provider_metadata: { description: 'The storage provider\'s own data (JSON)' },
    createdAt: dateTime,
    updatedAt: dateTime,
    publishedAt: nullableDateTime,
    folder: { ...nullableInteger, description: 'The folder\'s id; null at the root' },
  },
  examples: [{
    id: 31, documentId: 'k3j4h5g6f7d8s9a0q1w2e3r4', name: 'cover.jpg', alternativeText: 'A lighthouse at dusk', caption: null, focalPoint: null,
    width: 1600, height: 900, formats: { thumbnail: { url: '/p/my-blog/uploads/thumbnail_cover_3f9a.jpg', width: 245, height: 138 } },
    hash: 'cover_3f9a', ext: '.jpg', mime: 'image/jpeg', size: 182.4, url: '/p/my-blog/uploads/cover_3f9a.jpg', previewUrl: null,
    provider: 'local', provider_metadata: null, createdAt: '2026-11-23T06:00:00.000Z', updatedAt: '2026-11-23T06:00:00.000Z', publishedAt: '2026-11-23T06:00:00.000Z', folder: 7,
  }],
} as const;

/** `POST …/media/folders` (`partial: false`) and `PATCH …/media/folders/{id}` (name, parent or both). */
function folderBody(partial: boolean) {
  return {
    type: 'object',
    ...(partial ? { minProperties: 1 } : { required: ['name'] }),
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, description: 'Trimmed; unique among its siblings; no control characters' },
      parent: {
        anyOf: [{ type: 'integer' }, { type: 'string' }, { type: 'null' }],
        description: partial ? 'Moves it: a folder id (not itself nor one below it), or null for the root' : 'A folder id, or null (the default) for the root',
      },
    },
    examples: [partial ? { name: 'Archive' } : { name: 'Covers', parent: 3 }],
  } as const;
}

const FileListQuery = {
  type: 'object',
  properties: {
    folder: { type: 'string', description: 'A folder id, or `root` (files in no folder); absent: every file' },
    q: { type: 'string', description: 'Part of the name (case-insensitive), at most 200 characters' },
    type: { type: 'string', description: 'Comma-separated: `image`, `video`, `audio`, `file` (none of those)' },
    sort: { type: 'string', description: '`name`, `createdAt` (default), `updatedAt` or `size`, then `:asc` or `:desc` (default `createdAt:desc`)' },
    page: { type: 'string', description: 'From 1' },
    pageSize: { type: 'string', description: 'From 1 to 100 (default 50)' },
  },
} as const;

/** The listing's query as the document shows it, over `FileListQuery` (the handler reads the text: attachValidation). */
const FileListDocQuery = {
  folder: {
    anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', enum: ['root'] }],
    description: 'A folder id, or `root` (files in no folder); absent: every file',
  },
  q: { type: 'string', maxLength: 200, description: 'Part of the name (case-insensitive)' },
  type: { type: 'string', pattern: '^(image|video|audio|file)(,(image|video|audio|file))*$', description: FileListQuery.properties.type.description },
  sort: { type: 'string', pattern: '^(name|createdAt|updatedAt|size)(:(asc|desc))?$', description: FileListQuery.properties.sort.description },
  ...pageQuery(50, 100),
} as const;

/** A folder or a file named in the path (`docParams`): the handler reads the text (a malformed one: 400). */
const idParams = { id: positiveId() } as const;

const folderAnswer = (description: string) => answerWith('folder', MediaFolder, description);
const FolderList = listOf('folders', MediaFolder, 'Every folder of the project', 'Parents before children, siblings by name');
const FileList = {
  description: 'A page of files',
  type: 'object', required: ['files', 'pagination'],
  properties: { files: { type: 'array', items: MediaFile }, pagination: { $ref: 'Pagination#' } },
} as const;
const FileUsages = {
  description: 'Where the file is used',
  type: 'object', required: ['usages'],
  properties: {
    usages: {
      type: 'array',
      description: 'Every document version whose media fields link the file (drafts and published versions), by type, label and version',
      items: {
        type: 'object', required: ['uid', 'documentId', 'locale', 'status', 'field', 'label'],
        properties: {
          uid: { type: 'string', description: 'The content type\'s uid' },
          documentId: { type: 'string' },
          locale: nullableString,
          status: { type: 'string', enum: ['draft', 'published'] },
          field: { type: 'string', description: 'The media attribute, a dotted path through components (`seo.image`)' },
          label: { type: 'string', description: 'The document\'s main field, else its documentId' },
        },
      },
    },
  },
  examples: [{ usages: [{ uid: 'api::article.article', documentId: 'a1b2c3d4e5f6g7h8i9j0k1l2', locale: 'en', status: 'published', field: 'seo.image', label: 'Hello, world' }] }],
} as const;

const WRITERS = 'Viewers cannot change the media library';
const NO_FOLDER = 'No such project (or not a member), or no such folder in it';

export const mediaRoutes = {
  listFolders: defineRoute({
    tags: ['Media'],
    summary: 'List folders',
    description: 'Every folder of the media library, parents before children, with the count of files directly in each. Any member.',
    response: withErrors({ 200: FolderList }, { 404: NO_PROJECT }),
  }),

  createFolder: defineRoute({
    tags: ['Media'],
    summary: 'Create a folder',
    description: 'Owners and editors.',
    body: folderBody(false),
    response: withErrors({ 201: folderAnswer('Created') }, { 400: 'An invalid name or parent, or a sibling of that name (named in `details.errors`)', 403: WRITERS, 404: NO_PROJECT }),
  }),

  updateFolder: defineRoute({
    tags: ['Media'],
    summary: 'Rename or move a folder',
    description: 'Moving it moves its sub-folders and files along. Owners and editors.',
    body: folderBody(true),
    docParams: idParams,
    response: withErrors({ 200: folderAnswer('The folder as changed') }, {
      400: 'An invalid name or parent, a sibling of that name, or a move into itself or below it (named in `details.errors`)', 403: WRITERS, 404: NO_FOLDER,
    }),
  }),

  deleteFolder: defineRoute({
    tags: ['Media'],
    summary: 'Delete a folder',
    description: 'As in Strapi, its sub-folders and every file in them are deleted with it. Owners and editors.',
    docParams: idParams,
    response: withErrors({ 204: noContent('Deleted') }, { 400: 'A malformed id', 403: WRITERS, 404: NO_FOLDER }),
  }),

  listFiles: defineRoute({
    tags: ['Media'],
    summary: 'List files',
    description: 'By folder, name, type, with a sort; one page at a time. Each file as the upload API answers it, plus its `folder`.',
    querystring: FileListQuery,
    docQuery: FileListDocQuery,
    response: withErrors({ 200: FileList }, { 400: 'A malformed filter, sort or page (or an unknown key)', 404: `${NO_PROJECT}, or no such folder` }),
  }),

  fileUsages: defineRoute({
    tags: ['Media'],
    summary: 'Where a file is used',
    description: 'The dashboard\'s warning before a file in use is deleted (deleting it empties each of these fields).',
    docParams: idParams,
    response: withErrors({ 200: FileUsages }, { 400: 'A malformed id', 404: 'No such project (or not a member), or no such file in it' }),
  }),
};
