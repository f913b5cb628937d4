// A plan's SQL rendered once per query shape and bound per request. `ReadStatements` renders each
// statement kind on first use (a list's page and count, a single type's document, a document by
// id); `bind` gives the read of one request's values, which binds each statement once, so a read
// kept by the exact-text tier of the cache (read-cache.ts) costs no work but the round trip.
import { compiledQuery, type CompiledSql, type Db } from '@cms/db';
import type { FindResult } from './find-result.ts';
import { limitOffset, pageOf } from './pagination.ts';
import { bindParams } from './plan-values.ts';
import type { PagePlan, QueryPlan } from './query-plan.ts';
import { findOneTemplate, findTemplates } from './render-find.ts';
import { listWithTotal, type TotalTemplate } from './render-total.ts';
import { runTotal, type TotalSql } from './total-cache.ts';
import type { SqlTemplate } from './sql-builder.ts';

export interface CompiledRead {
  /** The plan with this request's values (`paginationMeta(read.plan, …)`, `renderCount(read.plan)`). */
  plan: QueryPlan;
  /** This request's page (a GraphQL connection's window). */
  page: PagePlan;
  find(db: Db): Promise<FindResult>;
  /** The document as JSON text, or null; `documentId` null reads a single type's document. */
  findOne(db: Db, documentId: string | null): Promise<string | null>;
  /** `findOne`'s statement (one row, one JSON column), for a caller that runs it inside another (a write's answer). */
  findOneSql(documentId: string | null): CompiledSql;
}

interface ListTemplates {
  data: SqlTemplate;
  count: SqlTemplate | null;
  total?: TotalTemplate;
}

// Page windows (LIMIT, first page or not) rendered per shape; others share the template whose
// LIMIT and OFFSET are parameters.
const MAX_WINDOWS = 4;

export class ReadStatements {
  /** By page window (`limit:first`), and '' for LIMIT and OFFSET as parameters. */
  private readonly lists = new Map<string, ListTemplates>();
  private single?: SqlTemplate;
  private byDocumentId?: SqlTemplate;

  /** `plan`: the shape's plan (its values are the first request's). */
  constructor(readonly plan: QueryPlan) {}

  bind(values: readonly unknown[]): CompiledRead {
    const plan = values === this.plan.values ? this.plan : { ...this.plan, values };
    const sql = (t: SqlTemplate): CompiledSql => ({ text: t.text, values: bindParams(t.params, values) });
    let list: { data: CompiledSql; withTotal: TotalSql | null } | undefined;
    let single: CompiledSql | undefined;
    let byDocumentId: CompiledSql | undefined;
    const page = pageOf(plan);
    const read: CompiledRead = {
      plan,
      page,
      find: async (db) => {
        if (!list) {
          const t = this.listTemplates(limitOffset(page));
          // With a total: the page and its total (kept by the database or checked against the
          // total cache) in one statement (render-total.ts).
          const total = t.count && (t.total ??= listWithTotal(this.plan, t.data));
          list = { data: sql(t.data), withTotal: total && { kind: total.kind, offset: total.offset, ...sql(total) } };
        }
        if (list.withTotal) {
          const { row, total } = await runTotal(db, list.withTotal);
          return { json: String(row.data), total };
        }
        return { json: String(await db.oneFirst(compiledQuery(list.data))), total: null };
      },
      findOneSql: (documentId) => {
        if (documentId === null) return (single ??= sql((this.single ??= findOneTemplate(this.plan, null))));
        // The documentId is bound first: swap in this request's value.
        byDocumentId ??= sql((this.byDocumentId ??= findOneTemplate(this.plan, '')));
        return { text: byDocumentId.text, values: [documentId, ...byDocumentId.values.slice(1)] };
      },
      findOne: async (db, documentId) => {
        const value = await db.maybeOneFirst(compiledQuery(read.findOneSql(documentId)));
        return value === null ? null : String(value);
      },
    };
    return read;
  }

  /** The list's statements for a page window (render-find.ts `PageWindow`). */
  private listTemplates({ limit, offset }: { limit: string | null; offset: string }): ListTemplates {
    const firstPage = offset === '0';
    const key = `${limit}:${firstPage}`;
    let t = this.lists.get(key);
    if (t) return t;
    if (this.lists.size >= MAX_WINDOWS) {
      t = this.lists.get('');
      if (!t) this.lists.set('', (t = findTemplates(this.plan)));
      return t;
    }
    t = findTemplates(this.plan, { limit, firstPage });
    this.lists.set(key, t);
    return t;
  }
}

/** A plan's read with its own values (one-off reads: write answers, a plugin row). */
export function compileRead(plan: QueryPlan): CompiledRead {
  return new ReadStatements(plan).bind(plan.values);
}
