// Relations held by components (unidirectional, as Strapi allows there): every relation kind,
// in a single component and in a repeatable one, written on create and update and read back in
// order — a oneToMany included, whose targets stay linked from every component row naming them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';

const MODEL = {
  contentTypes: {
    'api::page.page': {
      kind: 'collectionType', info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' }, options: { draftAndPublish: true },
      attributes: {
        title: { type: 'string' },
        hero: { type: 'component', component: 'shared.links', repeatable: false },
        rows: { type: 'component', component: 'shared.links', repeatable: true },
      },
    },
    'api::tag.tag': {
      kind: 'collectionType', info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' }, options: { draftAndPublish: false },
      attributes: { label: { type: 'string' } },
    },
  },
  components: {
    'shared.links': {
      collectionName: 'components_shared_links', info: { displayName: 'Links' },
      attributes: {
        many: { type: 'relation', relation: 'oneToMany', target: 'api::tag.tag' },
        one: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag' },
        owner: { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag' },
        all: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      },
    },
  },
};

describe('relations inside components', () => {
  let t: TestApp;
  let p: ContentProject;
  const tags: string[] = [];

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, MODEL);
    for (const label of ['a', 'b', 'c']) {
      const res = await p.api.post('/api/tags', { data: { label } });
      assert.equal(res.statusCode, 201, res.body);
      tags.push(res.json().data.documentId);
    }
  });
  after(async () => t?.close());

  const labels = (list: Array<{ label: string }> | null) => list?.map((x) => x.label) ?? null;
  const populate = 'populate[hero][populate]=*&populate[rows][populate]=*';

  it('writes every kind on create, published, and reads them back in order', async () => {
    const [a, b, c] = tags as [string, string, string];
    const created = await p.api.post('/api/pages?status=published', {
      data: {
        title: 'First',
        hero: { many: [c, a], one: b, owner: a, all: [b, c] },
        rows: [{ many: [a, b], one: a, owner: c, all: [c] }, { many: [a], all: [] }],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const read = await p.api.get(`/api/pages/${created.json().data.documentId}?${populate}`);
    assert.equal(read.statusCode, 200, read.body);
    const { hero, rows } = read.json().data;
    assert.deepEqual(labels(hero.many), ['c', 'a']);
    assert.equal(hero.one.label, 'b');
    assert.equal(hero.owner.label, 'a');
    assert.deepEqual(labels(hero.all), ['b', 'c']);
    // Tag a is named by the hero's and both rows' oneToMany: each component row keeps its link.
    assert.deepEqual(rows.map((r: { many: Array<{ label: string }> }) => labels(r.many)), [['a', 'b'], ['a']]);
    assert.equal(rows[0].one.label, 'a');
    assert.equal(rows[1].one, null);
    assert.deepEqual(labels(rows[1].all), []);
  });

  it('a second document naming the same targets leaves the first one\'s links alone, and updates rewrite them', async () => {
    const [a, b] = tags as [string, string, string];
    const first = await p.api.post('/api/pages', { data: { title: 'One', hero: { many: [a, b] } } });
    assert.equal(first.statusCode, 201, first.body);
    const second = await p.api.post('/api/pages', { data: { title: 'Two', hero: { many: [b] } } });
    assert.equal(second.statusCode, 201, second.body);
    const id = first.json().data.documentId;
    const firstHero = async () => (await p.api.get(`/api/pages/${id}?status=draft&${populate}`)).json().data.hero;
    assert.deepEqual(labels((await firstHero()).many), ['a', 'b']);
    const updated = await p.api.put(`/api/pages/${id}`, { data: { hero: { many: [b, a] } } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(labels((await firstHero()).many), ['b', 'a']);
    const missing = await p.api.put(`/api/pages/${id}`, { data: { hero: { many: ['nosuchdocumentid000000000'] } } });
    assert.equal(missing.statusCode, 400, missing.body);
    assert.deepEqual(labels((await firstHero()).many), ['b', 'a'], 'a refused update changes nothing');
  });
});
