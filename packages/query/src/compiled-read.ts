// A plan's SQL rendered once and reused: a list's statements take no per-request values, a
// document's statement takes only the documentId (always `$1`). Callers cache these per model
// version and query shape, so a repeated request costs no parsing, planning or rendering.
import { compiledQuery, type CompiledSql, type Db } from '@cms/db';
import type { QueryPlan } from './query-plan.ts';
import { renderFind, renderFindOne } from './render-find.ts';
import type { FindResult } from './find-result.ts';

export interface CompiledRead {
  plan: QueryPlan;
  find(db: Db): Promise<FindResult>;
  /** The document as JSON text, or null; `documentId` null reads a single type's document. */
  findOne(db: Db, documentId: string | null): Promise<string | null>;
}

export function compileRead(plan: QueryPlan): CompiledRead {
  let list: { data: CompiledSql; count: CompiledSql | null } | undefined;
  let single: CompiledSql | undefined;
  let byDocumentId: CompiledSql | undefined;
  return {
    plan,
    async find(db) {
      list ??= renderFind(plan);
      const { data, count } = list;
      const [json, total] = await Promise.all([
        db.oneFirst(compiledQuery(data)) as Promise<unknown>,
        count ? (db.oneFirst(compiledQuery(count)) as Promise<unknown>) : Promise.resolve(null),
      ]);
      return { json: String(json), total: total === null ? null : Number(total) };
    },
    async findOne(db, documentId) {
      let query: CompiledSql;
      if (documentId === null) query = single ??= renderFindOne(plan, null);
      else {
        // renderFindOne binds the documentId first: swap in this request's value.
        byDocumentId ??= renderFindOne(plan, '');
        query = { text: byDocumentId.text, values: [documentId, ...byDocumentId.values.slice(1)] };
      }
      const value = await db.maybeOneFirst(compiledQuery(query));
      return value === null ? null : String(value);
    },
  };
}
