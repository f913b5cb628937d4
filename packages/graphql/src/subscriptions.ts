// Subscription fields (`articleChanged(filters, locale, status, after)`, docs/graphql.md §
// Subscriptions): a type's document changes from the project's change log, fed by the gateway's
// live hub (`ctx.live`, over WebSocket), each with the document as the subscriber reads it — the
// read of `article(documentId:)` with the subscription's status and the event's locale, shared by
// every subscription of one delivery asking for the same selection with the same permissions.
//
// Filters: what depends on the event alone (`documentId`, `locale`, with eq/ne/in/notIn and
// and/or/not) is decided in memory; anything else is decided by reading the document with the
// filters (the same planner and SQL as `articles(filters:)`). A document that is gone (a delete;
// an unpublication, read published) cannot be read: such an event is sent unless what the event
// tells already excludes it.
import type { GraphQLResolveInfo } from 'graphql';
import { parseResolveInfo, type ResolveTree } from 'graphql-parse-resolve-info';
import { ValidationError } from '@cms/errors';
import { fieldSignature } from './field-signature.ts';
import { treeShape } from './read-shape.ts';
import { planRoot } from './root-plan.ts';
import { planEnvOf, requireAccess, requireDraftAccess, type Args, type Resolver } from './root-resolver.ts';
import type { ChangeMemo, ChangeRef, ChangeSource, FollowRequest, GraphqlContext, SchemaNames } from './context.ts';

export interface SubscriptionResolvers {
  changes(uid: string): Resolver;
  changed(uid: string): Resolver;
}

/** Can the document be read in `status` after this event? Not once deleted, nor published once unpublished (its draft stays). */
const readable = (event: string, status: 'published' | 'draft') =>
  event !== 'entry.delete' && event !== 'restart' && !(event === 'entry.unpublish' && status === 'published');
const POSITION = /^\d{1,15}$/;

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A shared read: the first subscription of a delivery runs it, the others await its answer. Keys
 * name the model version's reads (`ctx.reads`): subscriptions opened before and after a schema
 * change plan apart.
 */
const readsIds = new WeakMap<object, number>();
let lastReadsId = 0;
function memoized(memo: ChangeMemo, ctx: GraphqlContext, key: string, run: () => Promise<string | null>): Promise<string | null> {
  let id = readsIds.get(ctx.reads);
  if (id === undefined) readsIds.set(ctx.reads, (id = ++lastReadsId));
  key = `${id}\n${key}`;
  let found = memo.get(key);
  if (!found) memo.set(key, (found = run()));
  return found;
}

/** Is this a draft read under `draftAccess: "preview"` (planned against what the caller may preview)? */
const previewOf = (ctx: GraphqlContext, status: string) => ctx.draftAccess === 'preview' && status === 'draft';

export function createSubscriptionResolvers(names: () => SchemaNames): SubscriptionResolvers {
  return {
    changes(uid) {
      return async (_src, args, ctx) => {
        // The stream's permissions: `find` on the type; drafts as draft queries allow them.
        requireAccess(ctx, uid, 'find');
        const status = args.status === 'draft' ? 'draft' : 'published';
        if (status === 'draft') await requireDraftAccess(ctx, uid, { status });
        if (!ctx.live) throw new ValidationError('Subscriptions are served over WebSocket (graphql-transport-ws) at this endpoint');
        const locale = args.locale ?? null;
        if (locale !== null && (typeof locale !== 'string' || !ctx.localeCodes.has(locale))) throw new ValidationError('locale must be one of the project\'s locales');
        const after = args.after ?? null;
        if (after !== null && (typeof after !== 'string' || !POSITION.test(after))) throw new ValidationError('after must be the position of an event');
        return ctx.live.follow({ uid, status, locale, after: after === null ? null : Number(after), ...filtersOf(ctx, names(), uid, status, args.filters) });
      };
    },
    changed(uid) {
      return async (source, _args, ctx, info) => {
        const src = source as ChangeSource;
        // Deleted or unpublished: nothing to read. Without `findOne` the document is not readable.
        if (src.documentId === null || !readable(src.event, src.status) || !ctx.access.can(uid, 'findOne')) return null;
        const read = documentRead(ctx, names(), uid, src, info);
        const text = await memoized(src.memo, ctx, `graphql\n${read.key}\n${src.position}`, () => read.run(src.documentId!));
        return text === null ? null : JSON.parse(text);
      };
    },
  };
}

/** The changed document, read as `article(documentId:, status:, locale:)` with this field's selection. */
function documentRead(ctx: GraphqlContext, names: SchemaNames, uid: string, src: ChangeSource, info: GraphQLResolveInfo) {
  const previewed = previewOf(ctx, src.status);
  const scope: Args = { status: src.status, ...(src.locale === null ? {} : { locale: src.locale }) };
  const context = `graphql\n${uid}\nchange\n${ctx.access.key}\n${ctx.defaultLocale}\n${ctx.limits.defaultLimit}/${ctx.limits.maxLimit}${previewed ? '\npreview' : ''}`;
  const exact = `${fieldSignature(info)}${JSON.stringify(info.variableValues)}\n${JSON.stringify(scope)}`;
  return {
    key: `${context}\n${exact}`,
    run: (documentId: string) => ctx.reads.read({
      context, exact,
      shape: () => treeShape({ ...(parseResolveInfo(info) as ResolveTree), args: scope as ResolveTree['args'] }),
      plan: (tree, binder) => planRoot(ctx, planEnvOf(ctx, names, binder, previewed), uid, tree, 'document'),
    }).findOne(ctx.db, documentId),
  };
}

/** How a subscription's `filters` decide its events. */
function filtersOf(ctx: GraphqlContext, names: SchemaNames, uid: string, status: 'published' | 'draft', filters: unknown): Pick<FollowRequest, 'decide' | 'matches'> {
  if (!isDict(filters) || Object.keys(filters).length === 0) return { decide: () => true, matches: async () => true };
  const localized = ctx.model.contentTypes[uid]?.localized === true;
  const typeName = names.typeOf.get(uid)!;
  const previewed = previewOf(ctx, status);
  const context = `graphql\n${uid}\nchange-filter\n${ctx.access.key}\n${ctx.defaultLocale}${previewed ? '\npreview' : ''}`;
  const read = (locale: string | null) => {
    const args: Args = { filters, status, ...(locale === null ? {} : { locale }) };
    return ctx.reads.read({
      context,
      exact: JSON.stringify(args),
      // The document's documentId alone: only whether it is found matters.
      shape: () => treeShape({
        name: 'changed', alias: 'changed', args: args as ResolveTree['args'],
        fieldsByTypeName: { [typeName]: { documentId: { name: 'documentId', alias: 'documentId', args: {}, fieldsByTypeName: {} } } },
      }),
      plan: (tree, binder) => planRoot(ctx, planEnvOf(ctx, names, binder, previewed), uid, tree, 'document'),
    });
  };
  // Planned now: filters the planner refuses fail the subscription, not its events.
  read(localized ? ctx.defaultLocale : null);
  const key = `graphql-filter\n${context}\n${JSON.stringify(filters)}\n${status}`;
  return {
    decide: (event) => decide(filters, event, localized),
    matches: async (event, memo) => {
      // A document that is gone cannot be checked: its event is sent.
      if (!readable(event.event, status)) return true;
      const found = await memoized(memo, ctx, `${key}\n${event.position}`, () => read(localized ? event.locale : null).findOne(ctx.db, event.documentId));
      return found !== null;
    },
  };
}

// Three-valued logic (Kleene): true, false, or null — unknown from the event alone.
type Truth = boolean | null;
const and = (values: Truth[]): Truth => (values.includes(false) ? false : values.includes(null) ? null : true);
const or = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) || values.length === 0 ? null : false);
const not = (value: Truth): Truth => (value === null ? null : !value);

/** The filters on what the event tells (its documentId and locale); other fields are unknown. */
export function decide(filters: Dict, event: Pick<ChangeRef, 'documentId' | 'locale'>, localized: boolean): Truth {
  const parts: Truth[] = [];
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    if (key === 'and' || key === 'or') {
      const items = (Array.isArray(value) ? value : [value]).filter(isDict).map((item) => decide(item, event, localized));
      parts.push(key === 'and' ? and(items) : or(items));
    } else if (key === 'not') {
      parts.push(isDict(value) ? not(decide(value, event, localized)) : null);
    } else if (key === 'documentId' && isDict(value)) {
      parts.push(compare(value, event.documentId));
    } else if (key === 'locale' && localized && isDict(value) && event.locale !== null) {
      parts.push(compare(value, event.locale));
    } else {
      parts.push(null);
    }
  }
  return and(parts);
}

/** A scalar's filter (`{eq, ne, in, notIn, and, or, not}`) on a known text; other operators are unknown here. */
function compare(ops: Dict, actual: string): Truth {
  const parts: Truth[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    switch (op) {
      case 'eq':
        parts.push(value === null ? null : value === actual);
        break;
      case 'ne':
        parts.push(value === null ? null : value !== actual);
        break;
      case 'in':
        parts.push(values.includes(actual));
        break;
      case 'notIn':
        parts.push(!values.includes(actual));
        break;
      case 'and':
        parts.push(and(values.map((v) => v === actual)));
        break;
      case 'or':
        parts.push(or(values.map((v) => v === actual)));
        break;
      case 'not':
        parts.push(isDict(value) ? not(compare(value, actual)) : null);
        break;
      default:
        parts.push(null);
    }
  }
  return and(parts);
}
