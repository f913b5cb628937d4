// `unique` attributes: one value per locale among published rows (Strapi checks it on publishing
// writes only). `uid` attributes: one value per locale among all rows of other documents, drafts
// included, on every write. Checked before the row is written or published so
// every clash is reported with its path; the partial unique index stays the guard against races
// of `unique` ones (`uniqueViolation`).
import { ValidationError, type FieldError } from '@cms/errors';
import { column, qualify, quoteIdent } from '@cms/db';
import { COLUMNS, type PhysicalContentType, type PhysicalScalar } from '@cms/tables';
import type { WriteContext } from './write-context.ts';

const q = quoteIdent;
const UNIQUE_MESSAGE = 'This attribute must be unique';

const uniqueError = (name: string, value: unknown): FieldError => ({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError', value });

const isUid = (s: PhysicalScalar) => s.type === 'uid';

/**
 * Throw when another document has a row in `locale` with the same value: any row for a uid, a
 * published one for a `unique` attribute (checked on publishing writes only). Values come from
 * `values` (attribute → canonical text) when given, else from the stored row `rowId`.
 */
export async function assertUnique(
  ctx: WriteContext, ct: PhysicalContentType,
  version: { documentId: string | null; locale: string | null },
  from: { values: Map<string, string | null> } | { rowId: string; display: Record<string, unknown> },
  publishing = true,
): Promise<void> {
  const checked = ct.scalars.filter((s) =>
    (isUid(s) || (publishing && s.uniqueIndex !== null)) && ('values' in from ? from.values.get(s.name) != null : true));
  if (checked.length === 0) return;
  const table = qualify(ctx.schema, ct.table);
  const values: unknown[] = [version.documentId, version.locale];
  const probes = checked.map((s) => {
    let value: string;
    if ('values' in from) {
      values.push(from.values.get(s.name));
      value = `$${values.length}::${s.sqlType}`;
    } else value = `d.${q(s.column)}`;
    const published = isUid(s) ? '' : `AND o.${q(COLUMNS.publishedAt)} IS NOT NULL `;
    return `EXISTS (SELECT 1 FROM ${table} o WHERE o.${q(s.column)} = ${value} AND o.${q(COLUMNS.locale)} IS NOT DISTINCT FROM $2 ` +
      `${published}AND o.${q(COLUMNS.documentId)} IS DISTINCT FROM $1)::text`;
  });
  let text = `SELECT unnest(ARRAY[${probes.join(', ')}])`;
  if ('rowId' in from) {
    values.push(from.rowId);
    text += ` FROM ${table} d WHERE d.${q(COLUMNS.id)} = $${values.length}`;
  }
  const clashes = await column(ctx.tx, text, values);
  const errors = checked.flatMap((s, i) => {
    if (clashes[i] !== 'true') return [];
    return [uniqueError(s.name, 'values' in from ? from.values.get(s.name) : from.display[s.name])];
  });
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
}

/** A unique-index violation raised by a concurrent write, as the same 400 the check gives. */
export function uniqueViolation(ct: PhysicalContentType, error: unknown): ValidationError | null {
  const constraint = (error as { constraint?: unknown }).constraint;
  const attr = ct.scalars.find((s) => s.uniqueIndex !== null && s.uniqueIndex === constraint);
  return attr ? ValidationError.fromFieldErrors([uniqueError(attr.name, null)]) : null;
}
