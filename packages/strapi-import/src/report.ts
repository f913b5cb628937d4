// The import's closing report: per type and locale (and draft/published), how many versions the
// source held and how many were imported; files, users and relation links; and every item left
// out with why.
import type { Skipped } from './source.ts';

interface Row {
  type: string;
  locale: string | null;
  status: string | null;
  found: number;
  imported: number;
}

export class ImportReport {
  project = '';
  links = 0;
  readonly skipped: Skipped[] = [];
  private readonly rows = new Map<string, Row>();

  count(type: string, locale: string | null, what: 'found' | 'imported', status: string | null = null, n = 1): void {
    const key = `${type}\0${locale ?? ''}\0${status ?? ''}`;
    const row = this.rows.get(key) ?? { type, locale, status, found: 0, imported: 0 };
    row[what] += n;
    this.rows.set(key, row);
  }

  /** What the source held of `type` (in `locale`, `status`), imported or not. */
  addFound(type: string, locale: string | null, status: string | null, n: number): void {
    this.count(type, locale, 'found', status, n);
  }

  toJSON() {
    const counts = [...this.rows.values()].sort((a, b) =>
      a.type.localeCompare(b.type) || (a.locale ?? '').localeCompare(b.locale ?? '') || (a.status ?? '').localeCompare(b.status ?? ''));
    return { project: this.project, counts, relationLinks: this.links, skipped: this.skipped };
  }

  toText(): string {
    const { counts } = this.toJSON();
    const table = [['TYPE', 'LOCALE', 'STATUS', 'FOUND', 'IMPORTED'], ...counts.map((r) => [r.type, r.locale ?? '-', r.status ?? '-', String(r.found), String(r.imported)])];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    const lines = [`Imported into ${this.project}:`, ...table.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd())];
    lines.push(`Relation links: ${this.links}`);
    if (this.skipped.length === 0) lines.push('Nothing was skipped.');
    else lines.push(`Skipped (${this.skipped.length}):`, ...this.skipped.map((s) => `  ${s.what}: ${s.reason}`));
    return lines.join('\n');
  }
}
