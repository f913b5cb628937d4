// Packages depend downward only: the layers are written once, in docs/architecture.md, and every
// `@cms/*` import of a package's or app's sources is checked against them. Within a package,
// modules import no cycle (type imports included).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, sources } from './sources.ts';


function layers(): Map<string, number> {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = /```layers\n([\s\S]*?)```/.exec(doc);
  assert.ok(block, 'docs/architecture.md has a ```layers block');
  const out = new Map<string, number>();
  block[1]!.trim().split('\n').forEach((line, layer) => {
    for (const name of line.trim().split(/\s+/)) out.set(name, layer);
  });
  return out;
}

/** Every workspace (packages/x, apps/x) with sources, by its `@cms/` name. */
function workspaces(): Array<{ name: string; src: string }> {
  return ['packages', 'apps'].flatMap((group) => readdirSync(join(ROOT, group))
    .filter((name) => statSync(join(ROOT, group, name, 'src'), { throwIfNoEntry: false })?.isDirectory())
    .map((name) => ({ name, src: join(ROOT, group, name, 'src') })));
}

describe('package layering', () => {
  const order = layers();

  it('names every workspace in one layer', () => {
    const missing = workspaces().map((w) => w.name).filter((name) => !order.has(name));
    assert.deepEqual(missing, [], 'add them to the layers block of docs/architecture.md');
  });

  /** The `@cms/*` imports of one source text that break the order, as messages. */
  const upwardImports = (name: string, file: string, text: string): string[] => {
    const own = order.get(name)!;
    const found: string[] = [];
    for (const m of text.matchAll(/(?:from|import)\s+'@cms\/([a-z-]+)/g)) {
      const target = m[1]!;
      const layer = order.get(target);
      if (target !== name && (layer === undefined || layer >= own)) found.push(`${file} imports @cms/${target} (layer ${layer ?? '?'}; ${name} is layer ${own})`);
    }
    return found;
  };

  it('has no import of a package of the same layer or above', () => {
    const violations = workspaces().flatMap(({ name, src }) =>
      sources(src).flatMap((file) => upwardImports(name, file.slice(ROOT.length + 1), readFileSync(file, 'utf8'))));
    assert.deepEqual(violations, []);
  });

  it('reports an upward, a same-layer and an unknown import, and accepts downward ones', () => {
    const text = "import { a } from '@cms/graphql';\nimport type { B } from '@cms/documents';\nimport '@cms/nowhere';\nimport { c } from '@cms/errors';\n";
    assert.deepEqual(upwardImports('media', 'x.ts', text), [
      'x.ts imports @cms/graphql (layer 5; media is layer 4)',
      'x.ts imports @cms/documents (layer 4; media is layer 4)',
      'x.ts imports @cms/nowhere (layer ?; media is layer 4)',
    ]);
  });

  it('has no import cycle between the modules of a package or app', () => {
    const files = workspaces().flatMap(({ src }) => sources(src));
    const imports = new Map(files.map((file) => [file, [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^'"]*?'(\.{1,2}\/[^']+)'/gm)]
      .map((m) => resolve(dirname(file), m[1]!))
      .filter((target) => target !== file)]));
    const cycles: string[] = [];
    const done = new Set<string>();
    const path: string[] = [];
    const visit = (file: string) => {
      if (path.includes(file)) {
        cycles.push(path.slice(path.indexOf(file)).concat(file).map((f) => f.slice(ROOT.length + 1)).join(' → '));
        return;
      }
      if (done.has(file) || !imports.has(file)) return;
      path.push(file);
      for (const target of imports.get(file)!) visit(target);
      path.pop();
      done.add(file);
    };
    for (const file of files) visit(file);
    assert.deepEqual(cycles, []);
  });
});
