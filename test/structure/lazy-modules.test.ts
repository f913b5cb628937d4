// Heavy modules that only some configurations use are imported at first use (`import()`), never
// by a static import that would load them in every process: sharp (only when an image is
// processed), the S3 SDK (S3_BUCKET), stripe (STRIPE_SECRET_KEY), nodemailer (SMTP_URL).
// docs/performance.md § Gateway memory has what each costs a fresh gateway.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, sources } from './sources.ts';

const LAZY = ['sharp', '@aws-sdk/client-s3', 'stripe', 'nodemailer'];

/** The static imports (and re-exports) of a lazy module in a source text, type-only ones left out. */
export function staticImportsOfLazy(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+([^;]*?)\s*from\s+'([^']+)'/gm)) {
    const [, keyword, clause, target] = m as unknown as [string, string, string, string];
    if (!LAZY.includes(target)) continue;
    if (/^type\b/.test(clause)) continue;
    if (keyword === 'import' && /^\{[^}]*\}$/.test(clause) && clause.slice(1, -1).split(',').every((s) => /^\s*(type\s|$)/.test(s))) continue;
    found.push(`${keyword} ${clause} from '${target}'`);
  }
  for (const m of text.matchAll(/^\s*import\s+'([^']+)'/gm)) if (LAZY.includes(m[1]!)) found.push(`import '${m[1]}'`);
  return found;
}

describe('modules loaded at first use', () => {
  it('has no static import of sharp, the S3 SDK, stripe or nodemailer in the server', () => {
    const dirs = ['packages', 'apps'].flatMap((group) => readdirSync(join(ROOT, group))
      .filter((name) => name !== 'dashboard')
      .map((name) => join(ROOT, group, name, 'src'))
      .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()));
    const violations = dirs.flatMap((dir) => sources(dir).flatMap((file) =>
      staticImportsOfLazy(readFileSync(file, 'utf8')).map((found) => `${file.slice(ROOT.length + 1)}: ${found}`)));
    assert.deepEqual(violations, [], 'import them with import() where they are first needed');
  });

  it('tells static imports from type-only ones', () => {
    assert.deepEqual(staticImportsOfLazy([
      "import sharp from 'sharp';",
      "import type Stripe from 'stripe';",
      "import { type S3Client, type CompletedPart } from '@aws-sdk/client-s3';",
      "import nodemailer, { type Transporter } from 'nodemailer';",
      "import { S3Client } from '@aws-sdk/client-s3';",
      "export { default } from 'stripe';",
      "import 'sharp';",
      "const sdk = await import('@aws-sdk/client-s3');",
      "import pg from 'pg';",
    ].join('\n')), [
      "import sharp from 'sharp'",
      "import nodemailer, { type Transporter } from 'nodemailer'",
      "import { S3Client } from '@aws-sdk/client-s3'",
      "export { default } from 'stripe'",
      "import 'sharp'",
    ]);
  });
});
