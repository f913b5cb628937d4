// A release preview (REST `?release={id}`, GraphQL `release:`): the rows of a draft & publish type
// as they will be once the release is published. Per document-locale of the type: a `publish`
// action of the release reads the draft, an `unpublish` action reads nothing, and no action reads
// the published row, as always. Applied wherever a status rule is (sql-builder.ts
// `statusConditions`): the root rows, and populated, filtered and sorted relations at any depth.
// The release id is one bound parameter, so every release shares one SQL text per query shape.
// Only a pending release has actions here: one published meanwhile (or `done`) reads the
// published rows, which is what it left — in the read's own snapshot, whatever the timing.
import { NotFoundError } from '@cms/errors';
import { isoTimestamp, quoteIdent, quoteLiteral } from '@cms/db';
import { COLUMNS } from '@cms/tables';

// sql-builder.ts renders through this module: its own column helper keeps the import one-way.
const col = (alias: string, column: string): string => `${alias}.${quoteIdent(column)}`;

/** The ids releases have (bigint identities, as @cms/releases takes them in its routes). */
const RELEASE_ID = /^[1-9]\d{0,14}$/;

/** A release id as the request gave it; one no release can have is not found (as the management routes answer). */
export function releaseIdOf(raw: unknown): string {
  const id = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof id !== 'string' || !RELEASE_ID.test(id)) throw new NotFoundError('Release not found');
  return id;
}

export interface OverlayTarget {
  uid: string;
  localized: boolean;
  /** qualified `releases` and `release_actions` tables of the project */
  releases: string;
  actions: string;
}

/**
 * The condition on row `alias` of a draft & publish table; `release` is the bound id (`$n::bigint`),
 * `fresh` hands out aliases. Both lookups are probes of `release_actions$entry` (release, type,
 * document, locale), and the pending check an InitPlan run once per statement.
 */
export function overlayCondition(t: OverlayTarget, alias: string, release: string, fresh: (prefix: string) => string): string {
  const action = (publishOnly: boolean): string => {
    const a = fresh('ra');
    const r = fresh('rl');
    const pending = `(SELECT ${col(r, 'id')} FROM ${t.releases} ${r} WHERE ${col(r, 'id')} = ${release} AND ${col(r, 'released_at')} IS NULL)`;
    const conds = [
      `${col(a, 'release_id')} = ${pending}`,
      `${col(a, 'content_type')} = ${quoteLiteral(t.uid)}`,
      `${col(a, 'entry_document_id')} = ${col(alias, COLUMNS.documentId)}`,
      // The index is on COALESCE(locale, ''): actions of types without i18n have none.
      `COALESCE(${col(a, 'locale')}, '') = ${t.localized ? col(alias, COLUMNS.locale) : `''`}`,
    ];
    if (publishOnly) conds.push(`${col(a, 'type')} = 'publish'`);
    return `EXISTS (SELECT 1 FROM ${t.actions} ${a} WHERE ${conds.join(' AND ')})`;
  };
  const published = col(alias, COLUMNS.publishedAt);
  return `((${published} IS NULL AND ${action(true)}) OR (${published} IS NOT NULL AND NOT ${action(false)}))`;
}

/**
 * `publishedAt` of a row read through the overlay: a draft the release publishes shows the read's
 * time (it has no publication time yet), a published row its own.
 */
export const previewedPublishedAt = (alias: string): string => isoTimestamp(`COALESCE(${col(alias, COLUMNS.publishedAt)}, now())`);
