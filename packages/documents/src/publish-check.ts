// Whether stored entries could be published now, without publishing them: the check a publishing
// write makes of the merged draft (`validateForPublish`, which publishDraft runs too), for many
// document-locales at once — a release's validity (@cms/releases) reads every entry of its
// actions this way, one statement per content type.
import { qualify, quoteIdent, rows, type Db } from '@cms/db';
import { AppError, type ErrorDetails } from '@cms/errors';
import { COLUMNS, type PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';
import { parseDocumentData } from './parse-data.ts';
import { rowJsonExpression } from './row-json.ts';

const q = quoteIdent;

/**
 * Throws the ValidationError a publish of `merged` (a stored draft read back by row-json.ts in the
 * `body` style) would: every rule of a publishing write — required, min/max, lengths, regex.
 */
export function validateForPublish(model: Model, uid: string, merged: unknown): void {
  parseDocumentData(merged, { model, uid, mode: 'create', publishing: true, canFind: () => false });
}

/** One document-locale of a content type; `locale` is ignored on types without i18n. */
export interface EntryRef {
  uid: string;
  documentId: string;
  locale: string | null;
}

export interface EntryCheck {
  /** Does the document have a version in that locale (its draft, on draft & publish types)? */
  exists: boolean;
  /** Why publishing its draft now would be refused; null when it would pass (or it does not exist). */
  error: { message: string; details: ErrorDetails } | null;
}

export interface CheckContext {
  schema: string;
  model: Model;
  physical: PhysicalModel;
}

/**
 * Each entry's check, in the order of `entries`. The uniqueness of `unique` attributes is not
 * checked here (it depends on what else is published at that moment): publishing checks it.
 */
export async function checkEntries(db: Db, ctx: CheckContext, entries: readonly EntryRef[]): Promise<EntryCheck[]> {
  const out: EntryCheck[] = entries.map(() => ({ exists: false, error: null }));
  const byType = new Map<string, number[]>();
  entries.forEach((e, i) => byType.set(e.uid, [...(byType.get(e.uid) ?? []), i]));
  for (const [uid, indexes] of byType) {
    const ct = ctx.physical.contentTypes[uid];
    if (!ct || !ctx.model.contentTypes[uid]) continue;
    const documentIds = indexes.map((i) => entries[i]!.documentId);
    const locales = indexes.map((i) => (ct.localized ? entries[i]!.locale : null));
    // The draft: what a publish copies (the only row of a type without draft & publish).
    const draft = ct.draftAndPublish ? ` AND t.${q(COLUMNS.publishedAt)} IS NULL` : '';
    const found = await rows<{ n: string; body: string }>(db,
      `SELECT e.n::text AS n, (${rowJsonExpression(ctx.model, ctx.physical, ctx.schema, uid, 't', 'body')})::text AS body ` +
      `FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS e(document_id, locale, n) ` +
      `JOIN ${qualify(ctx.schema, ct.table)} t ON t.${q(COLUMNS.documentId)} = e.document_id ` +
      `AND t.${q(COLUMNS.locale)} IS NOT DISTINCT FROM e.locale${draft}`, [documentIds, locales]);
    for (const row of found) {
      const check = out[indexes[Number(row.n) - 1]!]!;
      check.exists = true;
      try {
        validateForPublish(ctx.model, uid, JSON.parse(row.body));
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        check.error = { message: error.message, details: error.details };
      }
    }
  }
  return out;
}
