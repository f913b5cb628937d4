// A hop as SQL: the FROM items and conditions that reach, from a parent row, the rows an
// attribute leads to — with the same rules for populate, deep filters and sorts: the request's
// status, and the locales the links name (never the request's locale, which picks root rows only).
import { COLUMNS } from '@cms/tables';
import type { TypeView } from './model-view.ts';
import type { Hop } from './query-plan.ts';
import { col, type SqlBuilder } from './sql-builder.ts';

export interface HopSql {
  from: string;
  where: string[];
  /** alias of the reached rows */
  alias: string;
  /** the stored order of the reached rows (link order, component order) */
  order: string[];
}

export function renderHop(b: SqlBuilder, hop: Hop, parent: string, parentView: TypeView): HopSql {
  const target = hop.target;
  const t = b.alias('r');
  switch (hop.kind) {
    case 'relation': {
      const rel = hop.relation;
      const l = b.alias('l');
      if (rel.side === 'owner') {
        // Link rows point from the parent row to a target document (and its locale version).
        const on = [`${col(t, COLUMNS.documentId)} = ${col(l, COLUMNS.targetDocumentId)}`];
        if (target.localized) on.push(`${col(t, COLUMNS.locale)} = ${col(l, COLUMNS.targetLocale)}`);
        return {
          from: `${b.table(rel.linkTable)} ${l} JOIN ${b.table(target.table)} ${t} ON ${on.join(' AND ')}`,
          where: [`${col(l, COLUMNS.sourceId)} = ${col(parent, COLUMNS.id)}`, ...b.statusConditions(target, t)],
          alias: t,
          order: [col(l, COLUMNS.ord), col(l, COLUMNS.id)],
        };
      }
      // Inverse side: the owner's rows link to the parent's document (in its locale, if localized).
      // Each locale version of a localized owner links on its own: a non-localized parent lists
      // every linked row, whatever the request's locale (verified on Strapi 5.54).
      const where = [
        `${col(l, COLUMNS.targetDocumentId)} = ${col(parent, COLUMNS.documentId)}`,
        parentView.localized ? `${col(l, COLUMNS.targetLocale)} = ${col(parent, COLUMNS.locale)}` : `${col(l, COLUMNS.targetLocale)} IS NULL`,
        ...b.statusConditions(target, t),
      ];
      return {
        from: `${b.table(rel.linkTable)} ${l} JOIN ${b.table(target.table)} ${t} ON ${col(t, COLUMNS.id)} = ${col(l, COLUMNS.sourceId)}`,
        where,
        alias: t,
        order: [col(l, COLUMNS.invOrd), col(l, COLUMNS.id)],
      };
    }
    case 'component':
      return {
        from: `${b.table(target.table)} ${t}`,
        where: [
          `${col(t, COLUMNS.ownerType)} = ${b.param(hop.ownerType, 'text')}`,
          `${col(t, COLUMNS.ownerId)} = ${col(parent, COLUMNS.id)}`,
          `${col(t, COLUMNS.ownerField)} = ${b.param(hop.ownerField, 'text')}`,
        ],
        alias: t,
        order: [col(t, COLUMNS.ord), col(t, COLUMNS.id)],
      };
    case 'media': {
      const l = b.alias('l');
      return {
        from: `${b.table(hop.linkTable)} ${l} JOIN ${b.table(target.table)} ${t} ON ${col(t, COLUMNS.id)} = ${col(l, COLUMNS.fileId)}`,
        where: [`${col(l, COLUMNS.sourceId)} = ${col(parent, COLUMNS.id)}`],
        alias: t,
        order: [col(l, COLUMNS.ord), col(l, COLUMNS.id)],
      };
    }
    case 'localizations':
      return {
        from: `${b.table(target.table)} ${t}`,
        where: [
          `${col(t, COLUMNS.documentId)} = ${col(parent, COLUMNS.documentId)}`,
          `${col(t, COLUMNS.locale)} <> ${col(parent, COLUMNS.locale)}`,
          ...b.statusConditions(target, t),
        ],
        alias: t,
        order: [col(t, COLUMNS.locale), col(t, COLUMNS.id)],
      };
  }
}
