// The generated schema of the blog example, printed and compared with the reviewed snapshot
// (Strapi v5 names and shapes). `UPDATE_SNAPSHOTS=1` rewrites the snapshot.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { printSchema } from 'graphql';
import { parseModel } from '@cms/schema';
import { buildProjectSchema, NO_RESOLVERS } from '@cms/graphql';
import { blogRawModel } from '../../../test/fixtures/index.ts';

const SNAPSHOT = join(import.meta.dirname, 'blog.schema.graphql');

it('the blog example generates the reviewed schema', () => {
  const { schema } = buildProjectSchema(parseModel(blogRawModel() as never), NO_RESOLVERS);
  const printed = `${printSchema(schema)}\n`;
  if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(SNAPSHOT, printed);
  assert.equal(printed, readFileSync(SNAPSHOT, 'utf8'));
});
