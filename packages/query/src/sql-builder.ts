// Accumulates bound parameters and hands out table aliases while a plan is rendered. Aliases and
// placeholders are numbered in traversal order, so the SQL text depends only on the plan's
// shape: two requests that differ only in values render the same text.
import { qualify, quoteIdent } from '@cms/db';
import { COLUMNS } from '@cms/tables';
import type { TypeView } from './model-view.ts';
import { cohortCondition } from './publication-filter.ts';
import type { Scope } from './query-plan.ts';
import { overlayCondition } from './release-overlay.ts';

export const q = quoteIdent;

/** A rendered statement: its text and parameters, `Param`s standing for a request's values. */
export interface SqlTemplate {
  text: string;
  params: readonly unknown[];
}

export class SqlBuilder {
  /** Constants of the shape, and `Param`s (bound per request, see plan-values.ts). */
  readonly params: unknown[] = [];
  private aliasCount = 0;
  /** The release id's placeholder: one parameter however many rows the overlay rules. */
  private releaseRef?: string;
  constructor(readonly scope: Scope) {}

  /** `$n` (optionally `::type`) bound to `value` (a constant or a `Param`). */
  param(value: unknown, type?: string): string {
    this.params.push(value);
    return type ? `$${this.params.length}::${type}` : `$${this.params.length}`;
  }

  /** A fresh quoted alias. */
  alias(prefix: string): string {
    return q(`${prefix}${this.aliasCount++}`);
  }

  table(name: string): string {
    return qualify(this.scope.schema, name);
  }

  /**
   * Status rule for rows of a content type: drafts or published rows, and the request's
   * publication cohort, which populated and filtered relations inherit (types with D&P only); in a
   * release preview, the rows the release will leave published (release-overlay.ts).
   */
  statusConditions(view: TypeView, alias: string): string[] {
    if (view.kind !== 'contentType' || !view.draftAndPublish) return [];
    if (this.scope.release) {
      this.releaseRef ??= this.param(this.scope.release, 'bigint');
      const target = { uid: view.uid, localized: view.localized, releases: this.table('releases'), actions: this.table('release_actions') };
      return [overlayCondition(target, alias, this.releaseRef, (p) => this.alias(p))];
    }
    const conds = [`${col(alias, COLUMNS.publishedAt)} IS ${this.scope.status === 'draft' ? '' : 'NOT '}NULL`];
    if (this.scope.publication) {
      conds.push(cohortCondition(this.scope.publication, { table: this.table(view.table), localized: view.localized }, alias, (p) => this.alias(p)));
    }
    return conds;
  }

  /** Status and locale rules of the queried type's own rows. */
  rootConditions(view: TypeView, alias: string): string[] {
    const conds = this.statusConditions(view, alias);
    if (view.localized && this.scope.locale !== null) conds.push(`${col(alias, COLUMNS.locale)} = ${this.param(this.scope.locale, 'text')}`);
    return conds;
  }
}

export const col = (alias: string, column: string): string => `${alias}.${q(column)}`;

export const and = (conds: readonly string[]): string => (conds.length === 0 ? 'TRUE' : conds.map((c) => (conds.length > 1 ? `(${c})` : c)).join(' AND '));
