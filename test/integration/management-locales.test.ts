import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { as, createProject, signup, type Session } from '../helpers/management.ts';

// PATCH /v1/projects/{slug}/locales/{code}: rename a locale or make it the default.
describe('management API: changing a locale', () => {
  let t: TestApp;
  let owner: Session;
  let project: { id: number; slug: string };
  const base = () => `/v1/projects/${project.slug}/locales`;

  before(async () => {
    t = await startTestApp();
    owner = await signup(t);
    project = await createProject(t, owner, { name: 'Locales' });
    assert.equal((await as(t, owner).post(base(), { code: 'fr' })).statusCode, 201);
  });
  after(async () => t?.close());

  it('makes another locale the default: one default, the project and the content API follow', async () => {
    const res = await as(t, owner).patch(`${base()}/fr`, { isDefault: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { locale: { code: 'fr', name: 'French (fr)', isDefault: true } });
    assert.deepEqual((await as(t, owner).get(base())).json().locales, [
      { code: 'en', name: 'English (en)', isDefault: false },
      { code: 'fr', name: 'French (fr)', isDefault: true },
    ]);
    assert.equal((await as(t, owner).get(`/v1/projects/${project.slug}`)).json().project.defaultLocale, 'fr');
    const served = (await t.inject({ url: `/p/${project.slug}/api/i18n/locales` })).json() as Array<{ code: string; isDefault: boolean }>;
    assert.deepEqual(served.map((l) => [l.code, l.isDefault]), [['en', false], ['fr', true]]);
    // Again: nothing changes.
    assert.deepEqual((await as(t, owner).patch(`${base()}/fr`, { isDefault: true })).json(), { locale: { code: 'fr', name: 'French (fr)', isDefault: true } });
    // The former default can now be deleted; the new one cannot.
    assert.equal((await as(t, owner).del(`${base()}/fr`)).statusCode, 400);
    assert.equal((await as(t, owner).del(`${base()}/en`)).statusCode, 204);
  });

  it('renames a locale', async () => {
    const res = await as(t, owner).patch(`${base()}/fr`, { name: 'Français' });
    assert.deepEqual(res.json(), { locale: { code: 'fr', name: 'Français', isDefault: true } });
  });

  it('refuses unsetting the default, empty bodies and names, unknown keys; 404 for an unknown code', async () => {
    const refused = await as(t, owner).patch(`${base()}/fr`, { isDefault: false });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(refused.json().error.details.errors, [{
      path: ['isDefault'], message: 'A project always has a default locale: make another locale the default instead', name: 'ValidationError',
    }]);
    for (const body of [{}, { name: '  ' }, { name: 'a\u0000b' }, { code: 'de' }, { isDefault: 'yes' }]) {
      assert.equal((await as(t, owner).patch(`${base()}/fr`, body)).statusCode, 400, JSON.stringify(body));
    }
    assert.equal((await as(t, owner).patch(`${base()}/de`, { isDefault: true })).statusCode, 404);
    assert.deepEqual((await as(t, owner).get(base())).json().locales, [{ code: 'fr', name: 'Français', isDefault: true }]);
  });

  it('another account gets 404 and changes nothing; no session is 401', async () => {
    const stranger = await signup(t);
    assert.equal((await as(t, stranger).patch(`${base()}/fr`, { name: 'Mine' })).statusCode, 404);
    assert.equal((await t.inject({ method: 'PATCH', url: `${base()}/fr`, payload: { name: 'Mine' } })).statusCode, 401);
    assert.equal((await as(t, owner).get(base())).json().locales[0].name, 'Français');
  });
});
