// Driving the management API in tests.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app.ts';
import type { TestSmtp } from './smtp.ts';

let n = 0;

/** The password `signup` gives an account unless told otherwise. */
export const PASSWORD = 'a long password';

export interface Session {
  token: string;
  account: { id: number; email: string; name: string | null; emailVerified: boolean; twoFactorEnabled: boolean };
}

export async function signup(t: TestApp, email = `user${process.pid}-${++n}@example.com`, password = PASSWORD): Promise<Session> {
  const res = await t.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password } });
  if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export function as(t: TestApp, session: Session | string) {
  const token = typeof session === 'string' ? session : session.token;
  const call = (method: string, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    t.inject({ method: method as 'GET', url, payload: payload as object, headers: { authorization: `Bearer ${token}` } });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    put: (url: string, payload?: unknown) => call('PUT', url, payload),
    patch: (url: string, payload?: unknown) => call('PATCH', url, payload),
    del: (url: string) => call('DELETE', url),
  };
}

export async function createProject(t: TestApp, session: Session, body: Record<string, unknown>): Promise<{ id: number; slug: string }> {
  const res = await as(t, session).post('/v1/projects', body);
  if (res.statusCode !== 201) throw new Error(`create project failed: ${res.statusCode} ${res.body}`);
  return res.json().project;
}

/** Makes `who` a member of the project straight in the database (no invitation). */
export async function addMember(t: TestApp, projectId: number, who: Session, role: string): Promise<void> {
  const { compiledQuery } = await import('@cms/db');
  await t.platform.db.pool.query(compiledQuery({
    text: 'INSERT INTO platform.project_members (project_id, account_id, role) VALUES ($1, $2, $3)', values: [projectId, who.account.id, role],
  }));
}

/** `email` signs up and joins the project as `role` through the link of the invitation its owner sends. */
export async function joinByInvitation(
  t: TestApp, smtp: TestSmtp, project: { slug: string; name: string; owner: Session }, email: string, role: string,
): Promise<Session> {
  const member = await signup(t, email);
  const invited = await as(t, project.owner).post(`/v1/projects/${project.slug}/invitations`, { email, role });
  assert.equal(invited.statusCode, 201, invited.body);
  const mail = await smtp.next(email, 10_000, `You are invited to ${project.name}`);
  const token = /token=(cms_i_[A-Za-z0-9_-]{43})/.exec(mail.text)![1];
  assert.equal((await as(t, member).post('/v1/invitations/accept', { token })).statusCode, 200);
  return member;
}

/** Count rows of a platform table (to prove nothing was written). */
export async function count(t: TestApp, table: string): Promise<number> {
  const { compiledQuery } = await import('@cms/db');
  return Number(await t.platform.db.pool.oneFirst(compiledQuery({ text: `SELECT count(*) FROM platform.${table}`, values: [] })));
}

/** The cookies a response sets, by name: value and (lower-cased) attributes. */
export function setCookies(res: LightMyRequestResponse): Record<string, { value: string; attrs: string[] }> {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return Object.fromEntries(list.map((line) => {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const at = pair!.indexOf('=');
    return [pair!.slice(0, at), { value: pair!.slice(at + 1), attrs: attrs.map((a) => a.toLowerCase()) }];
  }));
}
