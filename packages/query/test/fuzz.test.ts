// Property test: random (seeded) query strings and filter trees either are refused with a
// ValidationError / PaginationError, or compile to SQL that Postgres accepts — never anything else.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { compiledQuery } from '@cms/db';
import { COMPARISON_OPERATORS, parseQuery, parseQueryString, planQuery, renderFind, renderFindOne, type FilterNode, type QueryAst } from '../src/index.ts';
import { ARTICLE, CATEGORY, CHEF, RESTAURANT } from './helpers/model.ts';
import { context, createFixture, type Fixture } from './helpers/fixture.ts';
import { prng, type Prng } from '../../../test/helpers/prng.ts';

let f: Fixture;
before(async () => {
  f = await createFixture('query_fuzz');
});
after(async () => {
  await f.db.drop();
});

const rng = prng;
type Rng = Prng;

const NAMES: Record<string, string[]> = {
  [RESTAURANT]: ['name', 'description', 'rating', 'price', 'open', 'openedOn', 'email', 'kind', 'tags', 'opensAt', 'visits', 'score', 'lastVisit',
    'pin', 'secret', 'chef', 'categories', 'supplier', 'cover', 'gallery', 'seo', 'localizations', 'id', 'documentId', 'createdAt', 'updatedAt',
    'publishedAt', 'locale', 'nope'],
  [CHEF]: ['name', 'age', 'restaurants', 'mentor', 'favorite', 'id', 'documentId', 'createdAt', 'nope'],
  [CATEGORY]: ['name', 'slug', 'restaurants', 'id', 'documentId', 'publishedAt'],
  [ARTICLE]: ['title', 'views', 'score', 'publishedOn', 'blocks', 'sections', 'author', 'id', 'locale', 'localizations'],
  'api::supplier.supplier': ['name', 'id'],
  'shared.seo': ['metaTitle', 'metaDescription', 'social', 'featuredChef', 'image', 'id'],
  'shared.social': ['network', 'handle', 'id'],
  'shared.quote': ['body', 'author', 'id'],
};
// Where a name leads (for deeper paths).
const NEXT: Record<string, string> = {
  chef: CHEF, mentor: CHEF, author: CHEF, featuredChef: CHEF, restaurants: RESTAURANT, favorite: RESTAURANT, categories: CATEGORY,
  seo: 'shared.seo', social: 'shared.social', sections: 'shared.quote', supplier: 'api::supplier.supplier', localizations: RESTAURANT,
};
const VALUES = ['1', '0', '-1', '5', '12.5', '1e3', '1e400', '99999999999999999999', 'abc', '', ' 5 ', 'true', 'f', 'null',
  '2020-05-17', '2020-13-45', '2024-02-03T04:05:06.789Z', '2024-01-01T00:00:00+02:00', '1704067200000', '10:30', '25:61', '%', '_', '\\',
  "x'y", '"q"', 'é€😀', 'Pasta Place', 'a,b', '-0', '.5', '0x10', 'NaN', 'Infinity', '9223372036854775808', '-9223372036854775808'];
const OPS = [...COMPARISON_OPERATORS, '$nope'];

const enc = (s: string) => encodeURIComponent(s);

function randomPath(r: Rng, uid: string, depth = 0): string[] {
  const name = r.pick(NAMES[uid] ?? ['id']);
  const next = NEXT[name];
  if (next && depth < 3 && r.chance(0.8)) return [name, ...randomPath(r, next, depth + 1)];
  return [name];
}

function randomFilters(r: Rng, uid: string, prefix: string, depth: number, out: string[]) {
  const kind = depth < 3 ? r.int(6) : 0;
  if (kind === 4) {
    for (let i = 0; i < 1 + r.int(3); i++) randomFilters(r, uid, `${prefix}[${r.pick(['$or', '$and'])}][${i}]`, depth + 1, out);
    return;
  }
  if (kind === 5) return randomFilters(r, uid, `${prefix}[$not]`, depth + 1, out);
  const path = randomPath(r, uid).map((p) => `[${p}]`).join('');
  const op = r.pick(OPS);
  if (op === '$in' || op === '$notIn' || op === '$between') {
    const n = op === '$between' ? (r.chance(0.8) ? 2 : 1 + r.int(3)) : r.int(4);
    if (n === 0) out.push(`${prefix}${path}[${op}]=${enc(r.pick(VALUES))}`);
    for (let i = 0; i < n; i++) out.push(`${prefix}${path}[${op}][${i}]=${enc(r.pick(VALUES))}`);
  } else if (r.chance(0.1)) {
    out.push(`${prefix}${path}=${enc(r.pick(VALUES))}`);
  } else {
    out.push(`${prefix}${path}[${op}]=${enc(r.pick(VALUES))}`);
  }
}

function randomPopulate(r: Rng, uid: string, prefix: string, depth: number, out: string[]) {
  if (r.chance(0.15)) return out.push(`${prefix}=*`);
  const names = (NAMES[uid] ?? []).filter(() => r.chance(0.3));
  for (const name of names) {
    const next = NEXT[name];
    const at = `${prefix}[${name}]`;
    const choice = r.int(8);
    if (choice === 0) out.push(`${at}=true`);
    else if (choice === 1 && next) out.push(`${at}[fields][0]=${r.pick(NAMES[next] ?? ['id'])}`);
    else if (choice === 2 && next) randomFilters(r, next, `${at}[filters]`, 2, out);
    else if (choice === 3 && next) out.push(`${at}[sort]=${r.pick(NAMES[next] ?? ['id'])}:${r.pick(['asc', 'desc'])}`);
    else if (choice === 4) out.push(`${at}[count]=${r.pick(['true', 'false'])}`);
    else if (choice === 5 && next && depth < 3) randomPopulate(r, next, `${at}[populate]`, depth + 1, out);
    else if (choice === 6) out.push(`${at}[on][${r.pick(['shared.quote', 'shared.seo', 'shared.nope'])}][fields][0]=body`);
    else out.push(`${at}=*`);
  }
}

function randomQuery(r: Rng, uid: string): string {
  const parts: string[] = [];
  if (r.chance(0.7)) randomFilters(r, uid, 'filters', 0, parts);
  if (r.chance(0.4)) {
    const path = randomPath(r, uid);
    parts.push(r.chance(0.5) ? `sort=${path.join('.')}:${r.pick(['asc', 'desc', 'DESC', 'up'])}` : `sort${path.map((p) => `[${p}]`).join('')}=${r.pick(['asc', 'desc'])}`);
  }
  if (r.chance(0.3)) parts.push(`fields=${[r.pick(NAMES[uid]!), r.pick(NAMES[uid]!)].join(',')}`);
  if (r.chance(0.5)) randomPopulate(r, uid, 'populate', 0, parts);
  if (r.chance(0.3)) {
    const k = r.pick(['page', 'pageSize', 'start', 'limit', 'withCount', 'nope']);
    parts.push(`pagination[${k}]=${enc(r.pick(['1', '0', '-1', '3', 'abc', 'true', '1000', '99999999999999999']))}`);
    if (r.chance(0.3)) parts.push(`pagination[${r.pick(['page', 'limit'])}]=2`);
  }
  if (r.chance(0.2)) parts.push(`_q=${enc(r.pick(VALUES))}`);
  if (r.chance(0.2)) parts.push(`locale=${r.pick(['en', 'fr', '*', 'xx'])}`);
  if (r.chance(0.2)) parts.push(`status=${r.pick(['draft', 'published', 'bogus'])}`);
  return parts.join('&');
}

/** Random JS values, as a GraphQL layer might put in an AST. */
function randomValue(r: Rng): unknown {
  switch (r.int(9)) {
    case 0: return null;
    case 1: return r.chance(0.5);
    case 2: return (r.next() - 0.5) * 10 ** r.int(25);
    case 3: return r.int(10);
    case 4: return [r.pick(VALUES), r.int(5)];
    case 5: return { nested: 1 };
    case 6: return Number.NaN;
    default: return r.pick(VALUES);
  }
}

function randomTree(r: Rng, uid: string, depth: number): FilterNode {
  const k = depth < 3 ? r.int(5) : 0;
  if (k === 1) return { kind: 'and', children: Array.from({ length: r.int(3) }, () => randomTree(r, uid, depth + 1)) };
  if (k === 2) return { kind: 'or', children: Array.from({ length: 1 + r.int(3) }, () => randomTree(r, uid, depth + 1)) };
  if (k === 3) return { kind: 'not', child: randomTree(r, uid, depth + 1) };
  return { kind: 'compare', path: randomPath(r, uid), op: r.pick(COMPARISON_OPERATORS), value: randomValue(r) };
}

const ALLOWED = new Set(['ValidationError', 'PaginationError']);

async function check(ast: () => QueryAst, uid: string, locale: string, status: 'draft' | 'published', label: string, stats: { ok: number; refused: number }) {
  let plan;
  try {
    const a = ast();
    plan = planQuery(a, context(f, { uid, locale: a.locale ?? locale, status: a.status ?? status }));
  } catch (err: any) {
    assert.ok(ALLOWED.has(err?.name) && err.status === 400, `${label}: unexpected ${err?.name}: ${err?.message}\n${err?.stack}`);
    stats.refused++;
    return;
  }
  const { data, count } = renderFind(plan);
  try {
    const text = (await f.pool.oneFirst(compiledQuery(data))) as string;
    assert.ok(Array.isArray(JSON.parse(text)));
    if (count) await f.pool.oneFirst(compiledQuery(count));
    const one = (await f.pool.maybeOneFirst(compiledQuery(renderFindOne(plan, 'resta')))) as string | null;
    if (one !== null) JSON.parse(one);
  } catch (err: any) {
    assert.fail(`${label}: Postgres rejected the SQL: ${err?.message}\n${data.text}`);
  }
  stats.ok++;
}

describe('property: random queries', () => {
  it('400 random query strings: only 400s from plan, never SQL Postgres rejects', async () => {
    const r = rng(20240601);
    const stats = { ok: 0, refused: 0 };
    const uids = [RESTAURANT, RESTAURANT, CHEF, CATEGORY, ARTICLE];
    for (let i = 0; i < 400; i++) {
      const uid = r.pick(uids);
      const query = randomQuery(r, uid);
      await check(() => parseQuery(parseQueryString(query), { defaultLimit: 25, maxLimit: 100 }), uid, 'en', 'published', `${uid}?${query}`, stats);
    }
    // Both outcomes must be exercised for the property to mean something.
    assert.ok(stats.ok > 60 && stats.refused > 60, JSON.stringify(stats));
  });
  it('300 random filter trees with arbitrary JS values (GraphQL-shaped ASTs)', async () => {
    const r = rng(7);
    const stats = { ok: 0, refused: 0 };
    for (let i = 0; i < 300; i++) {
      const uid = r.pick([RESTAURANT, CHEF, ARTICLE]);
      const tree = randomTree(r, uid, 0);
      await check(() => ({ sort: [], filters: tree, search: r.chance(0.2) ? String(r.pick(VALUES)) : undefined }), uid,
        r.pick(['en', '*']), r.pick(['draft', 'published'] as const), JSON.stringify(tree), stats);
    }
    assert.ok(stats.ok > 30 && stats.refused > 30, JSON.stringify(stats));
  });
});
