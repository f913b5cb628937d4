// `make build`: compile the server once into dist/ (ESM for Node 20, with source maps), so
// production and `make start` run plain `node dist/gateway.js` without a TypeScript loader.
//
//   dist/gateway.js     the gateway (apps/gateway/src/main.ts)
//   dist/worker.js      the media and webhook worker (apps/worker/src/main.ts)
//   dist/migrate.js     applies the control and project base migrations, then exits
//   dist/move-project.js the operator's cluster commands (move a project, list and set clusters)
//   dist/cms-server.js  the container's entry point: `cms-server gateway|worker|migrate|move-project`
//
// The workspace packages (@cms/*) and most npm dependencies are bundled: a start then opens a
// few hundred files instead of ~2,000 (docs/performance.md § Start time). The
// dependencies in KEEP_EXTERNAL stay imports resolved from node_modules at run time (native
// modules such as sharp, PGlite's wasm, the modules OpenTelemetry patches as they load); the image
// installs production dependencies for them.
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

export const ENTRY_POINTS = {
  gateway: 'apps/gateway/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  migrate: 'apps/gateway/src/migrate.ts',
  'move-project': 'apps/gateway/src/move-project.ts',
  'cms-server': 'scripts/cms-server.ts',
} as const;

/**
 * npm packages left to Node at run time (matched on the package name, whoever imports them):
 * - pg, pg-pool, ioredis: OpenTelemetry's instrumentations patch them as Node loads them; the
 *   SDK (@opentelemetry/* but the API, which shares its state through a global) and @fastify/otel
 *   load before them, and only when telemetry is on;
 * - native addons and wasm: sharp (@img/*), @node-rs/* (password hashes), msgpackr's optional
 *   extension (BullMQ), PGlite.
 */
export const KEEP_EXTERNAL: ReadonlyArray<string | RegExp> = [
  'pg', 'pg-pool', 'pg-native', 'ioredis', /^@opentelemetry\/(?!api$)/, '@fastify/otel',
  'sharp', /^@img\//, /^@node-rs\//, 'msgpackr-extract', /^@msgpackr-extract\//, /^@electric-sql\//,
];

/**
 * npm packages a gateway loads at first use, never as it starts (docs/performance.md § The
 * answer cache, "An idle gateway"): GraphQL's (@cms/graphql/lazy), the S3 SDK, stripe and nodemailer. The build fails when
 * the chunks every start loads (GATEWAY_START's, and the chunks they import) hold one of them —
 * with code splitting even an unused re-export of a module puts it there.
 */
export const GATEWAY_LATER: readonly string[] = ['graphql', 'mercurius', 'graphql-jit', 'graphql-ws', '@aws-sdk/client-s3', 'stripe', 'nodemailer'];
/** The gateway's entry point and the modules it imports with `import()` as it starts. */
const GATEWAY_START = [ENTRY_POINTS.gateway, 'apps/gateway/src/app.ts', 'apps/gateway/src/platform.ts'];

/** The npm package a bare import names (`@scope/name` or `name`). */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

export function keptExternal(specifier: string): boolean {
  const name = packageName(specifier);
  return KEEP_EXTERNAL.some((rule) => (typeof rule === 'string' ? rule === name : rule.test(name)));
}

const npmDependenciesExternal: Plugin = {
  name: 'npm-dependencies-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      if (keptExternal(args.path)) return { path: args.path, external: true };
      return undefined;
    });
  },
};

/**
 * Bundled CommonJS code still calls `require` (Node's built-ins, the packages kept external) and
 * may read `__filename` / `__dirname`: an ES module defines none of them, so each output file does.
 */
const COMMONJS_GLOBALS = [
  "import { createRequire as __cmsCreateRequire } from 'node:module';",
  "import { fileURLToPath as __cmsFileURLToPath } from 'node:url';",
  'const require = __cmsCreateRequire(import.meta.url);',
  'const __filename = __cmsFileURLToPath(import.meta.url);',
  "const __dirname = __cmsFileURLToPath(new URL('.', import.meta.url));",
].join(' ');

/**
 * `import.meta.url` keeps meaning "this source file": every output file sits directly in dist/,
 * so a source's URL is rebuilt relative to the bundle (`new URL('../packages/config/src/index.ts',
 * import.meta.url)`). Files read next to a source (the dashboard build, resolving from there)
 * are found where they are in the repository and in the image, which keeps the same layout.
 */
function sourceRelativeImportMeta(outdir: string): Plugin {
  return {
    name: 'source-relative-import-meta',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromBundle = relative(outdir, args.path).split(sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

export interface BuildResult {
  outdir: string;
  /** Output files, relative to the repository root. */
  outputs: string[];
  /** Every source compiled in, relative to the root. */
  inputs: string[];
  /** npm packages the output imports at run time (esbuild's external imports, Node's built-ins left out), sorted. */
  externals: string[];
}

export async function buildServer(root = ROOT): Promise<BuildResult> {
  const outdir = join(root, 'dist');
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([name, path]) => [name, join(root, path)])),
    outdir,
    bundle: true,
    // Chunks keep the entry points' lazy imports lazy: the OpenTelemetry SDK must load before
    // pg and ioredis, which the rest of the app (a chunk of its own) imports.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Maps without the sources' text: a stack trace needs only the files and lines (smaller maps,
    // read at the first stack trace through a file: packages/telemetry/src/stack-traces.ts).
    sourcemap: true,
    sourcesContent: false,
    // No keepNames: it wraps every function created at run time (closures made per request) in a
    // `__name` call, 7% of a findOne's CPU. Error classes set their `name` themselves, and stack
    // traces take their names from the source maps.
    // Less text to read and parse at every start; names stay, and the source maps give stack
    // traces their TypeScript files and lines (each entry point imports @cms/telemetry/stack-traces
    // first, which reads a map at the first stack through its file; no `--enable-source-maps`,
    // which reads them all at start).
    minifyWhitespace: true,
    minifySyntax: true,
    // Short lines: an uncaught error prints its line of the bundle above the (mapped) stack trace.
    lineLimit: 160,
    metafile: true,
    logLevel: 'warning',
    banner: { js: COMMONJS_GLOBALS },
    plugins: [npmDependenciesExternal, sourceRelativeImportMeta(outdir)],
  });
  const described = describe(root, result.metafile);
  // The bundles are ES modules wherever dist/ is copied; inputs.json lists what went in (freshness).
  await mkdir(outdir, { recursive: true });
  await writeFile(join(outdir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(outdir, INPUTS_FILE), `${JSON.stringify(described.inputs)}\n`);
  // What the output needs from node_modules, for the image's checks.
  await writeFile(join(outdir, EXTERNALS_FILE), `${JSON.stringify(described.externals)}\n`);
  return described;
}

const INPUTS_FILE = 'inputs.json';
export const EXTERNALS_FILE = 'externals.json';
/** Besides the compiled sources: what changes the output without being one. */
const BUILD_INPUTS = ['scripts/build.ts', 'package-lock.json'];

/**
 * Why dist/ is out of date (a source compiled into it, or the build itself, is newer than
 * dist/gateway.js; a source was deleted), or null when it is fresh.
 */
export async function staleReason(root = ROOT): Promise<string | null> {
  const built = await stat(join(root, 'dist', 'gateway.js')).catch(() => null);
  if (!built) return 'dist/gateway.js is missing';
  const text = await readFile(join(root, 'dist', INPUTS_FILE), 'utf8').catch(() => null);
  if (!text) return `dist/${INPUTS_FILE} is missing`;
  for (const file of [...(JSON.parse(text) as string[]), ...BUILD_INPUTS]) {
    const source = await stat(join(root, file)).catch(() => null);
    if (!source) return `${file} is gone`;
    if (source.mtimeMs > built.mtimeMs) return `${file} changed`;
  }
  return null;
}

/** Build unless dist/ is fresh; says which. */
export async function ensureBuilt(root = ROOT): Promise<'fresh' | 'built'> {
  if ((await staleReason(root)) === null) return 'fresh';
  await buildServer(root);
  return 'built';
}

function describe(root: string, metafile: Metafile): BuildResult {
  const outdir = join(root, 'dist');
  const inputs = Object.keys(metafile.inputs);
  const bundledExternal = inputs.find((file) => {
    const inPackage = file.split('node_modules/').at(-1);
    return file.includes('node_modules/') && inPackage !== undefined && keptExternal(inPackage);
  });
  if (bundledExternal) throw new Error(`a dependency that must stay external was bundled: ${bundledExternal}`);
  const loadedAtStart = startChunks(metafile).flatMap((output) => Object.keys(metafile.outputs[output]!.inputs))
    .filter((file) => file.includes('node_modules/') && GATEWAY_LATER.includes(packageName(file.split('node_modules/').at(-1)!)));
  if (loadedAtStart.length) throw new Error(`the gateway would load these at every start (import them at first use): ${loadedAtStart.join(', ')}`);
  const externals = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      if (imported.external && !imported.path.startsWith('node:') && !isBuiltin(imported.path)) externals.add(packageName(imported.path));
    }
  }
  return {
    outdir,
    outputs: Object.keys(metafile.outputs).map((file) => relative(root, join(root, file))),
    // Bundled npm files change only with package-lock.json, one of BUILD_INPUTS.
    inputs: inputs.filter((file) => !file.includes('node_modules/')).map((file) => relative(root, join(root, file))),
    externals: [...externals].sort(),
  };
}

/** The output files a gateway's start loads: GATEWAY_START's chunks and, transitively, what they import. */
function startChunks(metafile: Metafile): string[] {
  const found = new Set<string>();
  const visit = (output: string) => {
    if (found.has(output)) return;
    found.add(output);
    for (const imported of metafile.outputs[output]!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  for (const [output, { entryPoint }] of Object.entries(metafile.outputs)) {
    if (entryPoint !== undefined && GATEWAY_START.includes(entryPoint)) visit(output);
  }
  if (found.size < GATEWAY_START.length) throw new Error(`the build has no chunk of each of ${GATEWAY_START.join(', ')}`);
  return [...found];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const { outputs, outdir } = await buildServer();
  const entries = outputs.filter((file) => !file.endsWith('.map') && !/chunk-/.test(file));
  process.stdout.write(`built ${entries.join(', ')} (+${outputs.length - entries.length} chunks and maps) into ${relative(process.cwd(), outdir) || dirname(outdir)} in ${Math.round(performance.now() - started)} ms\n`);
}
