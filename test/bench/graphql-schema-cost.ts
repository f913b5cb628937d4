// `make bench` (part 2): what one cached project GraphQL server costs — cold build time and heap
// per server — for a generated 10-type model (relations, components, a dynamic zone, enums).
import { buildProjectGraphql, DEFAULT_GRAPHQL_SETTINGS, type ProjectGraphql } from '@cms/graphql';
import { parseModel, type RawModel } from '@cms/schema';

const TYPES = 10;
const SERVERS = Number(process.env.BENCH_GRAPHQL_SERVERS ?? 30);

function tenTypeModel(): RawModel {
  const contentTypes: RawModel['contentTypes'] = {};
  for (let i = 0; i < TYPES; i++) {
    const next = `api::type${(i + 1) % TYPES}.type${(i + 1) % TYPES}`;
    contentTypes[`api::type${i}.type${i}`] = {
      kind: 'collectionType', info: { singularName: `type${i}`, pluralName: `type${i}s`, displayName: `Type ${i}` },
      options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: i % 2 === 0 } },
      attributes: {
        title: { type: 'string', required: true }, body: { type: 'richtext' }, views: { type: 'integer' }, big: { type: 'biginteger' },
        price: { type: 'decimal' }, day: { type: 'date' }, at: { type: 'datetime' }, flag: { type: 'boolean' }, data: { type: 'json' },
        kind: { type: 'enumeration', enum: ['a', 'b', 'c'] }, cover: { type: 'media', multiple: false }, gallery: { type: 'media', multiple: true },
        next: { type: 'relation', relation: 'manyToOne', target: next },
        many: { type: 'relation', relation: 'manyToMany', target: next },
        seo: { type: 'component', component: 'shared.seo' }, blocks: { type: 'dynamiczone', components: ['shared.seo', 'shared.quote'] },
      },
    };
  }
  const components = {
    'shared.seo': { info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string' }, metaDescription: { type: 'text' } } },
    'shared.quote': { info: { displayName: 'quote' }, attributes: { body: { type: 'text' }, author: { type: 'string' } } },
  };
  return { contentTypes, components };
}

const heap = () => {
  global.gc?.();
  return process.memoryUsage().heapUsed;
};

const model = parseModel(tenTypeModel());
// Warm the modules once so the first measured build is a project's cold build, not a process's.
await (await buildProjectGraphql(model, DEFAULT_GRAPHQL_SETTINGS)).close();
const before = heap();
const servers: ProjectGraphql[] = [];
const times: number[] = [];
for (let i = 0; i < SERVERS; i++) {
  const server = await buildProjectGraphql(parseModel(tenTypeModel()), DEFAULT_GRAPHQL_SETTINGS);
  times.push(server.buildMs);
  servers.push(server);
}
const perServer = (heap() - before) / SERVERS;
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
process.stdout.write(`GraphQL server for a ${TYPES}-type model: cold build median ${median.toFixed(1)} ms (max ${times.at(-1)!.toFixed(1)} ms), ` +
  `heap ${(perServer / 1024 / 1024).toFixed(2)} MB per cached server (${SERVERS} built${global.gc ? '' : ', without --expose-gc'})\n`);
await Promise.all(servers.map((s) => s.close()));
