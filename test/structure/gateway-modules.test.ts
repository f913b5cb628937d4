// The gateway's two APIs are apart: the management API (`apps/gateway/src/management`, `/v1`) and
// the content API (`apps/gateway/src/tenant`, `/p/{slug}`) import nothing of each other — type
// imports and re-exports included. What both need (upload limits, a project's OpenAPI document)
// lives beside them in `apps/gateway/src` (docs/architecture.md § The gateway's modules).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, sources } from './sources.ts';

const GATEWAY = join(ROOT, 'apps/gateway/src');
const APART = [['management', 'tenant'], ['tenant', 'management']] as const;

/** The relative module specifiers a source text imports, re-exports or loads with `import()`. */
export function relativeImports(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s+'(\.{1,2}\/[^']+)'/gm)) found.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g)) found.push(m[1]!);
  return found;
}

/** The imports of `file` (under `apps/gateway/src/<from>/`) that reach into `apps/gateway/src/<to>/`, as messages. */
function crossings(file: string, text: string, to: string): string[] {
  const target = join(GATEWAY, to) + sep;
  return relativeImports(text)
    .filter((spec) => resolve(dirname(file), spec).startsWith(target))
    .map((spec) => `${relative(ROOT, file)} imports '${spec}'`);
}

describe('gateway modules', () => {
  for (const [from, to] of APART) {
    it(`has no import of ${to}/ in ${from}/`, () => {
      const files = sources(join(GATEWAY, from));
      assert.ok(files.length > 5, `no sources found under apps/gateway/src/${from}`);
      assert.deepEqual(files.flatMap((file) => crossings(file, readFileSync(file, 'utf8'), to)), [],
        `move what both use into a module of apps/gateway/src beside ${from}/ and ${to}/`);
    });
  }

  it('reports imports, type imports, re-exports, side-effect imports and import() across, and nothing else', () => {
    const file = join(GATEWAY, 'management', 'x.ts');
    const text = [
      "import { sendProjectOpenApi } from '../tenant/openapi-route.ts';",
      "import type { Access } from '../tenant/access.ts';",
      "export { checkQuota } from '../tenant/upload-limits.ts';",
      "import '../tenant/request-context.ts';",
      "const lazy = await import('../tenant/caller.ts');",
      "import {\n  maxUploadBytes,\n  storageQuota,\n} from '../tenant/upload-limits.ts';",
      "import { projectOf } from './request-context.ts';",
      "import { checkQuota } from '../upload-limits.ts';",
      "import { tenantOf } from '@cms/tenancy';",
      '// see ../tenant/caller.ts',
    ].join('\n');
    assert.deepEqual(crossings(file, text, 'tenant'), [
      "apps/gateway/src/management/x.ts imports '../tenant/openapi-route.ts'",
      "apps/gateway/src/management/x.ts imports '../tenant/access.ts'",
      "apps/gateway/src/management/x.ts imports '../tenant/upload-limits.ts'",
      "apps/gateway/src/management/x.ts imports '../tenant/upload-limits.ts'",
      "apps/gateway/src/management/x.ts imports '../tenant/request-context.ts'",
      "apps/gateway/src/management/x.ts imports '../tenant/caller.ts'",
    ]);
  });
});
