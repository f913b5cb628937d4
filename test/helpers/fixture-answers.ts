// What a project made from the import fixture (test/fixtures/strapi-export) answers: every version
// of every type read through REST with everything populated, normalised to compare two projects
// (a source and its export imported again, a project before and after a restore). Row ids and
// stored file names (hash, URL, formats) are each database's own; everything else must match.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { as, type Session } from './management.ts';

const DEEP = 'populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[quotes]=true&populate[author]=true&populate[tags]=true' +
  '&populate[sections][on][shared.quote]=true&populate[sections][on][shared.media-block][populate][file]=true&populate[localizations]=true';

/** The reads: articles (both statuses, every locale), authors, tags, the homepage per locale and status. */
export const FIXTURE_READS: readonly string[] = [
  ...['draft', 'published'].map((s) => `articles?status=${s}&locale=*&sort=documentId&${DEEP}`),
  'authors?populate=*&sort=documentId', 'tags?status=draft&sort=documentId', 'tags?status=published&sort=documentId',
  ...['en', 'fr'].flatMap((l) => ['draft', 'published'].map((s) => `homepage?status=${s}&locale=${l}&populate=*`)),
];

const STORAGE_KEYS = new Set(['id', 'url', 'hash', 'formats', 'provider_metadata', 'size']);

export function normaliseAnswer(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseAnswer);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !STORAGE_KEYS.has(k)).map(([k, v]) => [k, normaliseAnswer(v)]));
  }
  return value;
}

/** A full-access API token of the project. */
export async function fullAccessToken(t: TestApp, owner: Session, slug: string): Promise<string> {
  const res = await as(t, owner).post(`/v1/projects/${slug}/api-tokens`, { name: `read ${Math.random()}`, type: 'full-access' });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().accessKey as string;
}

/** Every read of FIXTURE_READS, normalised, by read. */
export async function fixtureAnswers(t: TestApp, slug: string, token: string): Promise<Map<string, unknown>> {
  const answers = new Map<string, unknown>();
  for (const read of FIXTURE_READS) {
    const res = await t.inject({ method: 'GET', url: `/p/${slug}/api/${read}&pagination[pageSize]=100`, headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.statusCode, 200, `${slug} ${read}: ${res.body}`);
    answers.set(read, normaliseAnswer(res.json()));
  }
  return answers;
}

export function assertSameAnswers(actual: Map<string, unknown>, expected: Map<string, unknown>): void {
  for (const [read, answer] of expected) assert.deepEqual(actual.get(read), answer, read);
}
