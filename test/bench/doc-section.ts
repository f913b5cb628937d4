// The benchmark scripts each own one generated section of docs/performance.md, between
// `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`; the rest of the page is written by hand.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const PERFORMANCE_DOC = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));

/** Replace section `name` (or append it) with `markdown`. */
export function writeDocSection(name: string, markdown: string, path = PERFORMANCE_DOC): void {
  const start = `<!-- generated:${name} -->`;
  const end = `<!-- /generated:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : '# Performance\n';
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  const next = from >= 0 && to > from
    ? doc.slice(0, from) + block + doc.slice(to + end.length)
    : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, next);
}
