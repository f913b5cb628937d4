// Thousands of hostile requests, reproducible from a seed, against a listening gateway over
// keep-alive connections: REST reads and writes, GraphQL, upload, end-user auth and users, the
// management API, and raw malformed HTTP. Every one must get an answer, none a 5xx, and every
// error must be the documented envelope (GraphQL's own `{errors}` on /graphql).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { prng, type Prng } from '../helpers/prng.ts';
import { RawConnection } from '../helpers/raw-http.ts';
import { blogRawModel } from '../fixtures/index.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2400);
const CONCURRENCY = 8;

const WEIRD_STRINGS = [
  '', ' ', 'a'.repeat(5000), '\u0000', '%00', '%', '%ZZ', '%E0%A4%A', '../../etc/passwd', '<script>alert(1)</script>', "'; DROP TABLE x; --",
  '$eq', '$where', '__proto__', 'constructor', 'prototype', '😀', '\ud800', 'null', 'undefined', 'NaN', 'Infinity', '-1', '0', '1e309',
  '99999999999999999999999', '2024-13-45', '25:61:00', 'true', '[]', '{}', '*', '**', 'x'.repeat(300), '\r\n', '\\', '"',
];
const KEYS = ['title', 'label', 'name', 'readingMinutes', 'score', 'views', 'publishedOn', 'featured', 'format', 'extra', 'cover', 'attachments',
  'author', 'tags', 'meta', 'ctas', 'sections', 'id', 'documentId', 'createdAt', 'locale', 'publishedAt', 'slug', 'posts', 'nope', '__proto__'];
const OPERATORS = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$containsi', '$null', '$notNull', '$between',
  '$startsWith', '$and', '$or', '$not', '$nope', 'eq', '$eqi', '$notContains'];

function hostileValue(r: Prng, depth = 0): unknown {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0: return r.pick(WEIRD_STRINGS);
    case 1: return r.pick([0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), Number.MAX_VALUE, 1e-300]);
    case 2: return r.pick([true, false, null]);
    case 3: return r.pick(['abc', 'nosuchdocument00000000000', 'x@y', 'article']);
    case 4: return r.int(1000);
    case 5: return r.pick([[], {}, [null], [{}]]);
    case 6: return Array.from({ length: r.int(4) }, () => hostileValue(r, depth + 1));
    case 7: return Object.fromEntries(Array.from({ length: r.int(4) }, () => [r.pick([...KEYS, ...OPERATORS, 'connect', 'disconnect', 'set', 'position', 'before', '__component']), hostileValue(r, depth + 1)]));
    default: return { connect: [{ documentId: r.pick(WEIRD_STRINGS), position: r.pick([{ before: 'x' }, { after: 1 }, { start: 'yes' }, {}, null]) }] };
  }
}

/** encodeURIComponent, with a lone surrogate sent as the (invalid) UTF-8 a careless client would send. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

function hostileQuery(r: Prng): string {
  const parts: string[] = [];
  for (let i = r.int(5); i >= 0; i--) {
    const key = r.pick([
      () => `filters${Array.from({ length: 1 + r.int(6) }, () => `[${r.pick([...KEYS, ...OPERATORS, '0', ''])}]`).join('')}`,
      () => `sort${r.pick(['', '[0]', '[]', '[x]'])}`,
      () => `populate${Array.from({ length: r.int(5) }, () => `[${r.pick([...KEYS, 'populate', 'fields', 'filters', 'on', '*', 'count'])}]`).join('')}`,
      () => `fields${r.pick(['', '[0]', '[]', '[x][y]'])}`,
      () => `pagination[${r.pick(['page', 'pageSize', 'start', 'limit', 'withCount', 'x'])}]`,
      () => r.pick(['locale', 'status', '_q', 'publicationState', 'publicationFilter', 'hasPublishedVersion', 'x', '', '[', ']']),
    ])();
    const value = r.pick([
      () => encode(String(r.pick(WEIRD_STRINGS))),
      () => r.pick(WEIRD_STRINGS),
      () => r.pick(KEYS) + r.pick([':asc', ':desc', ':sideways', '', ',', '.name']),
      () => String(r.int(10 ** r.int(12))),
      () => r.pick(['draft', 'published', 'en', 'fr', '*', 'all', 'modified', 'never-published', 'published-with-draft', 'true']),
    ])();
    parts.push(`${key}=${value}`);
  }
  if (r.int(10) === 0) parts.push(`filters${'[$and][0]'.repeat(30)}[title][$eq]=x`);
  if (r.int(20) === 0) parts.push(Array.from({ length: 3000 }, (_, i) => `a${i}=1`).join('&'));
  return parts.join('&');
}

const GRAPHQL_QUERIES = [
  '{ posts { title } }', '{ posts(filters: { title: { eq: 1 } }) { title } }', '{ posts(sort: 42) { title } }',
  '{ posts(pagination: { page: -1, pageSize: 1000000 }) { title } }', '{ post(documentId: "x") { title author { name } } }',
  '{ posts { author { posts { author { posts { author { name } } } } } } }', 'mutation { createPost(data: { title: 5 }) { title } }',
  'mutation { createPost(data: { title: "x", tags: ["nope"] }) { documentId } }', 'mutation { deletePost(documentId: "nope") { documentId } }',
  '{ __schema { types { name } } }', 'query { posts_connection { pageInfo { total } } }', '{ posts { nope } }', '{', '}', 'query ($x: Int) { posts(pagination: { limit: $x }) { title } }',
  'subscription { posts { title } }', '{ uploadFiles { name } }', 'mutation { login(input: { identifier: "x", password: "y" }) { jwt } }',
  '{ me { id } }', '{ posts(locale: "zz") { title } }', '{ posts(status: DRAFT, publicationFilter: MODIFIED) { title } }',
  '{ uploadFiles { related { __typename ... on Post { title } } } }', '{ usersPermissionsRoles(sort: "nope") { type } }',
  'mutation { createUsersPermissionsRole(data: { name: "" }) { ok } }', 'mutation { deleteUsersPermissionsRole(id: "public") { ok } }',
  'mutation { updateUsersPermissionsRole(id: "1", data: { name: 5 }) { ok } }', `{ ${'a: posts { title } '.repeat(200)} }`, '{ posts(filters: { publishedOn: { eq: "2024-99-99" } }) { title } }',
];

describe('hostile input fuzz', () => {
  let t: TestApp;
  let p: ContentProject;
  let base: string;
  let port: number;
  let token: string;
  let session: string;

  before(async () => {
    t = await startTestApp({ env: { AUTH_RATE_LIMIT_MAX: '1000', AUTH_IP_RATE_LIMIT_MAX: '100000' } });
    p = await setupContentProject(t, blogRawModel(), ['fr']);
    await p.setPublic({ 'api::post.post': ['find', 'findOne'], 'api::tag.tag': ['find', 'findOne', 'create'], 'plugin::users-permissions': ['find'] });
    token = await p.token('full-access');
    const login = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email: 'fuzz@example.com', password: 'a long password' } });
    session = login.json().token;
    for (const label of ['a', 'b']) await p.api.post('/api/tags', { data: { label } });
    await p.api.post('/api/posts', { data: { title: 'seed post' } });
    await t.fastify.listen({ port: 0, host: '127.0.0.1' });
    port = (t.fastify.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  after(async () => t?.close());

  it(`${REQUESTS} hostile requests: every one answered, no 5xx, errors in the envelope`, async () => {
    const r = prng(SEED);
    const project = `/p/${p.slug}`;
    type Req = { method: string; path: string; headers: Record<string, string>; body?: string | Uint8Array };
    const auth = () => r.pick<Record<string, string>>([{}, { authorization: `Bearer ${token}` }, { authorization: 'Bearer nope' }, { authorization: 'Basic xyz' }, { authorization: `Bearer ${token}x` }]);
    const jsonBody = (): string => r.pick([
      () => JSON.stringify({ data: hostileValue(r) }),
      () => JSON.stringify(hostileValue(r)),
      () => JSON.stringify({ data: Object.fromEntries(Array.from({ length: 1 + r.int(6) }, () => [r.pick(KEYS), hostileValue(r)])) }),
      () => r.pick(['{', '{"data":', 'null', '[]', '""', '{"data":{}}', '{"data":{"title":"ok"}}', `{"data":${'['.repeat(5000)}`, '\u0000', '']),
    ])();
    const generators: (() => Req)[] = [
      () => ({ method: r.pick(['GET', 'GET', 'HEAD', 'DELETE']), path: `${project}/api/${r.pick(['posts', 'tags', 'authors', 'site', 'nope', 'posts/x', `posts/${r.pick(WEIRD_STRINGS)}`, 'upload/files', 'users', 'i18n/locales'])}?${hostileQuery(r)}`, headers: auth() }),
      () => ({ method: r.pick(['POST', 'PUT', 'PATCH', 'DELETE']), path: `${project}/api/${r.pick(['posts', 'tags', 'site', 'posts/nosuchdocument00000000000', 'tags/abc'])}?${r.int(3) ? '' : hostileQuery(r)}`,
        headers: { ...auth(), 'content-type': r.pick(['application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x']) }, body: jsonBody() }),
      () => ({ method: 'POST', path: `${project}/graphql`, headers: { ...auth(), 'content-type': 'application/json' },
        body: r.int(4) ? JSON.stringify({ query: r.pick(GRAPHQL_QUERIES), variables: r.int(2) ? hostileValue(r) : undefined, operationName: r.int(5) ? undefined : hostileValue(r) }) : jsonBody() }),
      () => ({ method: 'GET', path: `${project}/graphql?query=${encode(r.pick(GRAPHQL_QUERIES))}&variables=${encode(r.pick(WEIRD_STRINGS))}`, headers: { ...auth(), 'content-type': 'application/json' } }),
      () => {
        const boundary = r.pick(['b0undary', 'x'.repeat(r.int(100)), '', '"q"']);
        const part = (name: string, filename?: string, content = r.pick(WEIRD_STRINGS)) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}\r\n${r.int(2) ? 'Content-Type: image/png\r\n' : ''}\r\n${content}\r\n`;
        const parts = Array.from({ length: r.int(4) }, () => part(r.pick(['files', 'fileInfo', 'ref', 'refId', 'field', '__proto__', 'x']), r.int(2) ? r.pick(WEIRD_STRINGS) : undefined));
        const tail = r.int(3) ? `--${boundary}--\r\n` : '';
        return { method: 'POST', path: `${project}/api/upload${r.pick(['', '?id=1', '?id=x', '?id=-1'])}`, headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}` }, body: parts.join('') + tail };
      },
      () => ({ method: 'POST', path: `${project}/api/auth/${r.pick(['local', 'local/register', 'forgot-password', 'reset-password', 'change-password', 'send-email-confirmation', 'nope'])}`,
        headers: { ...auth(), 'content-type': 'application/json' }, body: r.int(2) ? JSON.stringify({ identifier: hostileValue(r), password: hostileValue(r), email: hostileValue(r), username: hostileValue(r), code: hostileValue(r) }) : jsonBody() }),
      () => ({ method: r.pick(['GET', 'PUT', 'DELETE', 'POST']), path: `${project}/api/users${r.pick(['', '/me', '/1', '/x', '/count', '/99999999999999999999'])}?${r.int(2) ? hostileQuery(r) : ''}`, headers: { ...auth(), 'content-type': 'application/json' }, body: jsonBody() }),
      () => ({ method: r.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']),
        path: `/v1/${r.pick(['auth/login', 'auth/signup', 'projects', `projects/${p.slug}`, `projects/${p.slug}/schema`, `projects/${p.slug}/locales`, `projects/${p.slug}/api-tokens`, `projects/${p.slug}/settings/cors`, `projects/${p.slug}/roles/public/permissions`, `projects/${p.slug}/content-types/api::post.post`, 'projects/other', 'nope', `projects/${r.pick(WEIRD_STRINGS)}`])}`,
        headers: { ...(r.int(2) ? { authorization: `Bearer ${session}` } : {}), 'content-type': 'application/json' }, body: jsonBody() }),
    ];

    // Writes through the management API must not change the fuzzed project's model, or later
    // requests test something else: keep PUTs of its schema away from valid bodies (they are
    // refused anyway) by only sending hostile ones above.
    const queue = Array.from({ length: REQUESTS }, () => r.pick(generators)());
    const problems: string[] = [];
    const statuses = new Map<number, number>();
    let answered = 0;
    const worker = async () => {
      for (let req = queue.shift(); req; req = queue.shift()) {
        const what = `${req.method} ${req.path.slice(0, 200)} ${typeof req.body === 'string' ? req.body.slice(0, 200) : ''}`;
        let res: Response;
        try {
          res = await fetch(base + req.path, { method: req.method, headers: req.headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body });
        } catch (err) {
          problems.push(`no answer: ${what}: ${(err as Error).cause ?? err}`);
          continue;
        }
        answered++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const text = await res.text();
        if (res.status >= 500) problems.push(`${res.status}: ${what} → ${text.slice(0, 300)}`);
        if (res.status >= 400 && req.method !== 'HEAD') {
          let body: { data?: unknown; error?: { status?: unknown; name?: unknown; message?: unknown; details?: unknown }; errors?: unknown[] };
          try {
            body = JSON.parse(text);
          } catch {
            problems.push(`not JSON (${res.status}): ${what} → ${text.slice(0, 200)}`);
            continue;
          }
          const envelope = body.data === null && body.error?.status === res.status && typeof body.error.name === 'string'
            && typeof body.error.message === 'string' && typeof body.error.details === 'object' && body.error.details !== null;
          const graphqlErrors = req.path.includes('/graphql') && Array.isArray(body.errors) && body.errors.length > 0;
          if (!envelope && !graphqlErrors) problems.push(`not the envelope (${res.status}): ${what} → ${text.slice(0, 200)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    // Raw HTTP: malformed requests on their own connections, then a good one on a fresh connection.
    const raw = [
      'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 'BREW /coffee HTTP/1.1\r\nHost: x\r\n\r\n', 'GET / HTTP/7.0\r\nHost: x\r\n\r\n',
      `GET /${'a'.repeat(70_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n',
      'POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n', '\u0000\u0001\u0002\r\n\r\n',
      `GET ${project}/api/posts HTTP/1.1\r\nHost: x\r\n${'X-A: b\r\n'.repeat(2000)}\r\n`, 'GET  HTTP/1.1\r\n\r\n', `GET ${project}/api/posts?%%%% HTTP/1.1\r\nHost: x\r\n\r\n`,
    ];
    for (let i = 0; i < 200; i++) {
      const request = raw[i % raw.length]!;
      const conn = await RawConnection.open(port);
      try {
        const res = await conn.send(request);
        answered++;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500 && res.status !== 505) problems.push(`raw ${res.status}: ${JSON.stringify(request.slice(0, 80))}`);
        if (res.status >= 400) {
          const body = JSON.parse(res.body);
          if (body.data !== null || body.error?.status !== res.status) problems.push(`raw not the envelope: ${JSON.stringify(request.slice(0, 80))} → ${res.body.slice(0, 200)}`);
        }
      } catch (err) {
        problems.push(`raw no answer: ${JSON.stringify(request.slice(0, 80))}: ${(err as Error).message}`);
      } finally {
        conn.close();
      }
    }

    const summary = JSON.stringify(Object.fromEntries([...statuses].sort((x, y) => x[0] - y[0])));
    assert.deepEqual(problems.slice(0, 30), [], `seed ${SEED}: ${problems.length} problems; statuses ${summary}`);
    assert.equal(answered, REQUESTS + 200);
    console.log(`fuzz seed ${SEED}: ${answered} requests answered, statuses ${summary}`);
  });
});
