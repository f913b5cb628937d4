// The subscription side of a generated schema (docs/graphql.md § Subscriptions): its names where
// a model's own names would clash with them, the refusal of a model whose names collide (and the
// schema still served for a model stored before subscriptions existed), the checks a
// subscription's operation passes before it starts, and how filters decide an event from what
// it tells.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseModel } from '@cms/schema';
import { buildProjectGraphql, buildProjectSchema, checkGraphqlNames, DEFAULT_GRAPHQL_SETTINGS, NO_RESOLVERS } from '@cms/graphql';
import { decide } from '../src/subscriptions.ts';
import { collectionType as ct } from '../../../test/fixtures/index.ts';

const modelOf = (types: Record<string, Record<string, unknown>>) => parseModel({ contentTypes: types, components: {} } as never);
const article = ct('article', 'articles', { title: { type: 'string' } });

describe('subscription names', () => {
  it('names a type\'s document field `entry` when its singularName is one of the event\'s own fields', () => {
    const { schema } = buildProjectSchema(modelOf({ 'api::event.event': ct('event', 'events', { title: { type: 'string' } }) }), NO_RESOLVERS);
    const fields = Object.keys((schema.getType('EventChangeEvent') as { getFields(): object }).getFields());
    assert.deepEqual(fields, ['event', 'documentId', 'locale', 'position', 'entry']);
    assert.ok(schema.getSubscriptionType()!.getFields().eventChanged);
  });

  it('calls the root type RootSubscription when a content type is named `subscription` (a Strapi model stays valid)', () => {
    const model = modelOf({ 'api::subscription.subscription': ct('subscription', 'subscriptions', { email: { type: 'string' } }) });
    checkGraphqlNames(model);
    const { schema } = buildProjectSchema(model, NO_RESOLVERS);
    assert.equal(schema.getSubscriptionType()!.name, 'RootSubscription');
    assert.equal(schema.getType('Subscription')!.toString(), 'Subscription');
    assert.ok(schema.getSubscriptionType()!.getFields().subscriptionChanged);
  });

  it('refuses a model whose names collide with the generated ones, and serves a stored one without subscriptions', async () => {
    const model = modelOf({ 'api::article.article': article, 'api::article-change-event.article-change-event': ct('article-change-event', 'article-change-events', { note: { type: 'string' } }) });
    assert.throws(() => checkGraphqlNames(model), /ArticleChangeEvent/);
    const served = await buildProjectGraphql(model, DEFAULT_GRAPHQL_SETTINGS);
    try {
      assert.equal(served.schema.getSubscriptionType(), undefined);
      assert.ok(served.schema.getQueryType()!.getFields().articles);
    } finally {
      await served.close();
    }
  });
});

describe('a subscription\'s operation', () => {
  const limits = { defaultLimit: 10, maxLimit: -1 };
  it('is checked like an HTTP one, and only subscriptions are taken', async () => {
    const served = await buildProjectGraphql(modelOf({ 'api::article.article': article }), { ...DEFAULT_GRAPHQL_SETTINGS, depthLimit: 3, introspection: false });
    try {
      const code = (query: string, variables?: Record<string, unknown>) => {
        const prepared = served.prepareSubscription({ query, variables }, limits);
        return 'errors' in prepared ? prepared.errors[0]!.extensions.code : 'ok';
      };
      assert.equal(code('subscription { articleChanged { event article { title } } }'), 'ok');
      assert.equal(code('subscription {'), 'GRAPHQL_PARSE_FAILED');
      assert.equal(code('subscription { articleChanged { nope } }'), 'GRAPHQL_VALIDATION_FAILED');
      assert.equal(code('subscription { articleChanged { article { title } } __schema { types { name } } }'), 'GRAPHQL_VALIDATION_FAILED');
      assert.equal(code('subscription { articleChanged { article { ... on Article { documentId } } } }'), 'GRAPHQL_VALIDATION_FAILED', 'depth 4 > 3');
      assert.equal(code('subscription($s: PublicationStatus) { articleChanged(status: $s) { event } }', { s: 'NOPE' }), 'BAD_USER_INPUT');
      assert.equal(code('{ articles { title } }'), 'BAD_REQUEST');
      assert.equal(code('mutation { deleteArticle(documentId: "x") { documentId } }'), 'BAD_REQUEST');
    } finally {
      await served.close();
    }
  });
});

describe('filters decided from the event alone', () => {
  const event = { documentId: 'a1', locale: 'fr' };
  it('documentId and locale are known, other fields unknown (null: the document is read)', () => {
    assert.equal(decide({ documentId: { eq: 'a1' } }, event, true), true);
    assert.equal(decide({ documentId: { eq: 'b2' } }, event, true), false);
    assert.equal(decide({ documentId: { in: ['b2', 'a1'] }, locale: { eq: 'fr' } }, event, true), true);
    assert.equal(decide({ documentId: { notIn: ['a1'] } }, event, true), false);
    assert.equal(decide({ title: { eq: 'x' } }, event, true), null);
    assert.equal(decide({ documentId: { eq: 'b2' }, title: { eq: 'x' } }, event, true), false, 'false and unknown is false');
    assert.equal(decide({ or: [{ documentId: { eq: 'a1' } }, { title: { eq: 'x' } }] }, event, true), true, 'true or unknown is true');
    assert.equal(decide({ not: { documentId: { eq: 'a1' } } }, event, true), false);
    assert.equal(decide({ documentId: { containsi: 'A' } }, event, true), null, 'operators other than eq/ne/in/notIn are left to the read');
    assert.equal(decide({ locale: { eq: 'en' } }, { documentId: 'a1', locale: null }, true), null, 'a delete of every locale');
  });
});
