// The model the live-stream tests (SSE and GraphQL subscriptions) stream: a localized article
// with draft & publish and a private attribute, and a category without draft & publish.
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.ts';
import { collectionType as ct } from '../fixtures/index.ts';

const localized = { pluginOptions: { i18n: { localized: true } } };

export const LIVE_MODEL = {
  contentTypes: {
    'api::article.article': ct('article', 'articles', {
      title: { type: 'string', ...localized },
      body: { type: 'text', ...localized },
      secret: { type: 'string', private: true },
    }, localized),
    'api::category.category': { ...ct('category', 'categories', { name: { type: 'string' } }), options: { draftAndPublish: false } },
  },
  components: {},
};
export const ARTICLE = 'api::article.article';
export const CATEGORY = 'api::category.category';

/** Serve the gateway on a free local port; answers its base URL with `scheme` (http, ws). */
export async function listenOn(t: TestApp, scheme: 'http' | 'ws'): Promise<string> {
  await t.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `${scheme}://127.0.0.1:${(t.fastify.server.address() as AddressInfo).port}`;
}
