// Stack traces of a bundle through its source maps, read on first use (@cms/telemetry/stack-traces):
// the decoder agrees with Node's own on every position, and a bundle run without
// --enable-source-maps names the TypeScript files and lines.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
import { LineSourceMap } from '../src/stack-traces.ts';

const run = promisify(execFile);
const STACK_TRACES = fileURLToPath(new URL('../src/stack-traces.ts', import.meta.url));

// Line 9 throws (column 11), called from line 13 (column 59) of the same file.
const THROWER = `export class Shelf {
  items: string[] = [];

  add(item: string): void {
    this.items.push(item);
  }

  take(): string {
    throw new Error('the shelf is empty');
  }
}

export function emptyShelf(): string { return new Shelf().take(); }
`;

const ENTRY = `import '${STACK_TRACES.replaceAll('\\', '/')}';
import { emptyShelf } from './thrower.ts';

try {
  emptyShelf();
} catch (err) {
  process.stdout.write(String((err as Error).stack));
}
`;

describe('stack traces through source maps read on first use', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stack-traces-'));
    await writeFile(join(dir, 'thrower.ts'), THROWER);
    await writeFile(join(dir, 'entry.ts'), ENTRY);
    // As scripts/build.ts compiles the server: minified whitespace, short lines, maps without sources.
    await build({
      entryPoints: [join(dir, 'entry.ts')], outdir: join(dir, 'dist'), bundle: true, format: 'esm', platform: 'node', target: 'node20',
      sourcemap: true, sourcesContent: false, minifyWhitespace: true, minifySyntax: true, lineLimit: 40, logLevel: 'silent',
    });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds what Node finds at every position of a bundle', async () => {
    const mapFile = join(dir, 'dist', 'entry.js.map');
    const payload = JSON.parse(await readFile(mapFile, 'utf8'));
    const ours = new LineSourceMap(payload, pathToFileURL(mapFile).href);
    const node = new SourceMap(payload);
    const lines = (await readFile(join(dir, 'dist', 'entry.js'), 'utf8')).split('\n');
    let mapped = 0;
    for (let line = 0; line <= lines.length; line++) {
      for (let column = 0; column <= (lines[line]?.length ?? 3); column++) {
        const entry = node.findEntry(line, column) as { originalSource?: string; originalLine?: number; originalColumn?: number };
        const expected = entry.originalSource
          ? { source: fileURLToPath(new URL(entry.originalSource, pathToFileURL(mapFile))), line: entry.originalLine, column: entry.originalColumn }
          : null;
        assert.deepEqual(ours.find(line, column), expected, `${line}:${column}`);
        if (expected) mapped++;
      }
    }
    assert.ok(mapped > 100);
  });

  it('names the TypeScript files and lines in a bundle run without --enable-source-maps', async () => {
    const { stdout } = await run(process.execPath, [join(dir, 'dist', 'entry.js')]);
    const [header, first, second] = stdout.split('\n');
    assert.equal(header, 'Error: the shelf is empty');
    assert.equal(first, `    at Shelf.take (${join(dir, 'thrower.ts')}:9:11)`);
    assert.equal(second, `    at emptyShelf (${join(dir, 'thrower.ts')}:13:59)`);
    assert.match(stdout, new RegExp(`at ${join(dir, 'entry.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5:3`));
  });

  it('leaves the stack traces to Node under --enable-source-maps', async () => {
    const { stdout } = await run(process.execPath, ['--enable-source-maps', join(dir, 'dist', 'entry.js')]);
    assert.match(stdout.split('\n')[1]!, new RegExp(`thrower\\.ts:9:11\\)$`));
  });

  it('leaves the frames of files without a map as they are', async () => {
    await writeFile(join(dir, 'other.mjs'), `import './dist/entry.js';\nconst e = new Error('x');\nprocess.stdout.write('\\n' + e.stack);\n`);
    const { stdout } = await run(process.execPath, [join(dir, 'other.mjs')]);
    assert.match(stdout, new RegExp(`at ${pathToFileURL(join(dir, 'other.mjs')).href.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:11`));
  });
});
