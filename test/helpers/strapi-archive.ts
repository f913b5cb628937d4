// Synthetic `strapi export` archives (Strapi's data-transfer format, as in
// test/fixtures/strapi-export) and the project folder that goes with them, written on the fly
// for tests that need sizes or defects a small real export does not have. Assets are streamed
// into the archive, so an archive can be far larger than what the test keeps in memory. And the
// reading of an archive's entities and links, independent of the CLI's reader.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';

export type Dict = Record<string, unknown>;

export interface ArchiveEntity { type: string; id: number; data: Dict }
export interface LinkEnd { type: string; ref: number | string; field?: string; pos?: number }
export interface ArchiveLink { kind: string; relation?: string; left: LinkEnd; right: LinkEnd }

/** A value without its row ids (`id` keys at any depth): each database numbers its rows its own way. */
export function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'id').map(([k, v]) => [k, withoutIds(v)]));
  return value;
}

export interface ArchiveContents { entities: ArchiveEntity[]; links: ArchiveLink[] }

/** The entities and links of the `strapi export` archive at `path`, in the archive's order. */
export async function readStrapiArchive(path: string): Promise<ArchiveContents> {
  const entities: ArchiveEntity[] = [];
  const links: ArchiveLink[] = [];
  const tar = extract();
  createReadStream(path).pipe(createGunzip()).pipe(tar);
  for await (const entry of tar) {
    const name = entry.header.name;
    if (name.startsWith('entities/') || name.startsWith('links/')) {
      for await (const line of createInterface({ input: entry as unknown as NodeJS.ReadableStream })) {
        if (!line) continue;
        if (name.startsWith('entities/')) entities.push(JSON.parse(line) as ArchiveEntity);
        else links.push(JSON.parse(line) as ArchiveLink);
      }
    }
    entry.resume();
  }
  return { entities, links };
}

export interface ArchiveAsset {
  /** The file's name in `assets/uploads/` (its `hash + ext`). */
  fileName: string;
  size: number;
  /** The bytes (exactly `size` of them). */
  body: () => Readable | Iterable<Buffer> | AsyncIterable<Buffer>;
}

export interface ArchiveContent {
  strapiVersion?: string;
  /** `{type, id, data}` items, in order. */
  entities: Iterable<Dict>;
  /** `{kind, relation, left, right}` items. */
  links?: Iterable<Dict>;
  configuration?: Iterable<Dict>;
  assets?: ArchiveAsset[];
}

/** Bytes that gzip cannot make smaller, `size` of them, in 1 MB chunks. */
export async function* randomBody(size: number): AsyncGenerator<Buffer> {
  for (let left = size; left > 0; left -= 1 << 20) yield randomBytes(Math.min(left, 1 << 20));
}

function jsonl(items: Iterable<Dict>): Buffer {
  const lines: string[] = [];
  for (const item of items) lines.push(JSON.stringify(item));
  return Buffer.from(lines.length ? `${lines.join('\n')}\n` : '');
}

/** Write `content` as a gzipped `strapi export` archive at `path`. */
export async function writeStrapiArchive(path: string, content: ArchiveContent): Promise<void> {
  const tar = pack();
  const done = pipeline(tar, createGzip({ level: 1 }), createWriteStream(path));
  const add = (name: string, body: Buffer) => new Promise<void>((resolve, reject) => {
    tar.entry({ name, size: body.length }, body, (err) => (err ? reject(err) : resolve()));
  });
  await add('entities/entities_00001.jsonl', jsonl(content.entities));
  for (const asset of content.assets ?? []) {
    await add(`assets/metadata/${asset.fileName}.json`, Buffer.from('{}'));
    await new Promise<void>((resolve, reject) => {
      const entry = tar.entry({ name: `assets/uploads/${asset.fileName}`, size: asset.size }, (err) => (err ? reject(err) : resolve()));
      pipeline(asset.body(), entry).catch(reject);
    });
  }
  await add('links/links_00001.jsonl', jsonl(content.links ?? []));
  await add('configuration/configuration_00001.jsonl', jsonl(content.configuration ?? []));
  await add('metadata.json', Buffer.from(JSON.stringify({ createdAt: '2026-11-27T00:00:00.000Z', strapi: { version: content.strapiVersion ?? '5.54.0' } })));
  tar.finalize();
  await done;
}

/** A Strapi project folder: package.json (its name) and the schema files of `contentTypes` and `components`. */
export async function writeStrapiProject(dir: string, name: string, model: { contentTypes: Record<string, Dict>; components?: Record<string, Dict> }): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  for (const [uid, schema] of Object.entries(model.contentTypes)) {
    const type = uid.replace(/^api::/, '').split('.')[1]!;
    const folder = join(dir, 'src/api', type, 'content-types', type);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'schema.json'), JSON.stringify(schema, null, 2));
  }
  for (const [uid, schema] of Object.entries(model.components ?? {})) {
    const [category, component] = uid.split('.') as [string, string];
    await mkdir(join(dir, 'src/components', category), { recursive: true });
    await writeFile(join(dir, 'src/components', category, `${component}.json`), JSON.stringify(schema, null, 2));
  }
}

/** A Strapi 5 documentId-like id (24 lower-case letters and digits), unique per `n`. */
export const documentIdOf = (prefix: string, n: number) => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;

/** An upload entity (`plugin::upload.file`) whose bytes are `assets/uploads/<hash><ext>`. */
export function fileEntity(id: number, hash: string, ext: string, mime: string, name = `${hash}${ext}`): Dict {
  return {
    type: 'plugin::upload.file', id,
    data: {
      documentId: documentIdOf('file', id), name, alternativeText: null, caption: null, hash, ext, mime, url: `/uploads/${hash}${ext}`,
      provider: 'local', folderPath: '/', createdAt: '2026-11-25T10:00:00.000Z', updatedAt: '2026-11-25T10:00:00.000Z', publishedAt: '2026-11-25T10:00:00.000Z', locale: null,
    },
  };
}

/** The morph link of a media attribute (`field` of the `type` row `ref`) to the file `file`. */
export const mediaLink = (file: number, type: string, ref: number, field: string, pos = 1): Dict => ({
  kind: 'relation.morph', relation: 'morphToMany',
  left: { type: 'plugin::upload.file', field: 'related', ref: file }, right: { type, field, ref, pos },
});

/** A relation link from `field` of the `from` row `ref` to the `to` row `target` (`relation.circular` within one type, as Strapi writes it). */
export const relationLink = (from: string, ref: number, field: string, to: string, target: number, pos = 1): Dict => ({
  kind: from === to ? 'relation.circular' : 'relation.basic', relation: 'manyToOne', left: { type: from, field, ref, pos }, right: { type: to, ref: target },
});
