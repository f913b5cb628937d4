// GraphiQL, as mercurius ships it: an HTML page and two scripts that load GraphiQL itself from a
// CDN. Served under each project's `/graphql` (the page's relative script paths resolve there).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const STATIC_DIR = join(dirname(createRequire(import.meta.url).resolve('mercurius')), 'static');

const read = (file: string) => readFileSync(join(STATIC_DIR, file), 'utf8');

export const GRAPHIQL_ASSETS = {
  page: read('graphiql.html'),
  mainJs: read('main.js'),
  serviceWorkerJs: read('sw.js'),
  /** The endpoint is relative: `./graphql` from `…/graphql` is the project's own endpoint. */
  configJs: "window.GRAPHQL_ENDPOINT = './graphql';\nwindow.GRAPHIQL_PLUGIN_LIST = []",
};
