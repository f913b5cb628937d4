// Attributes that embed components: `component` (single or repeatable) and `dynamiczone`.
// Nesting cycles and depth need every component and are checked in component-nesting.ts.
import { withBase, type BaseFields, type OwnerContext } from './attribute-base.ts';
import { describeType, show } from './guards.ts';
import type { OptionReader } from './options.ts';
import type { ComponentAttribute, DynamicZoneAttribute } from './types.ts';

export function parseComponentAttribute(ctx: OwnerContext, base: BaseFields, opts: OptionReader): ComponentAttribute | undefined {
  const component = readComponentUid(ctx, opts);
  const repeatable = opts.boolean('repeatable') ?? false;
  const bounds = repeatable ? readItemBounds(opts) : {};
  if (!repeatable) {
    for (const key of ['min', 'max']) if (opts.has(key)) opts.fail(key, `${key} is only allowed on repeatable components`);
  }
  if (component === undefined) return undefined;
  return withBase<ComponentAttribute>(base, Object.assign({ kind: 'component' as const, component, repeatable }, bounds));
}

export function parseDynamicZone(ctx: OwnerContext, base: BaseFields, opts: OptionReader): DynamicZoneAttribute | undefined {
  const components = readComponentList(ctx, opts);
  const bounds = readItemBounds(opts);
  if (components === undefined) return undefined;
  return withBase<DynamicZoneAttribute>(base, Object.assign({ kind: 'dynamiczone' as const, components }, bounds));
}

/** Item-count bounds of repeatable components and dynamic zones. */
function readItemBounds(opts: OptionReader): { min?: number; max?: number } {
  const min = opts.nonNegativeInteger('min');
  const max = opts.nonNegativeInteger('max');
  opts.ordered('min', min, 'max', max);
  const bounds: { min?: number; max?: number } = {};
  if (min !== undefined) bounds.min = min;
  if (max !== undefined) bounds.max = max;
  return bounds;
}

function readComponentUid(ctx: OwnerContext, opts: OptionReader): string | undefined {
  if (!opts.has('component')) return opts.fail('component', 'component is required');
  const uid = opts.value('component');
  if (typeof uid !== 'string') return opts.fail('component', `component must be a string, got ${describeType(uid)}`);
  if (!ctx.componentUids.has(uid)) return opts.fail('component', `component ${show(uid)} is not a component of this model`);
  return uid;
}

function readComponentList(ctx: OwnerContext, opts: OptionReader): string[] | undefined {
  if (!opts.has('components')) return opts.fail('components', 'components is required');
  const list = opts.value('components');
  if (!Array.isArray(list)) return opts.fail('components', `components must be an array of component uids, got ${describeType(list)}`);
  if (list.length === 0) return opts.fail('components', 'components must not be empty');
  const seen = new Set<string>();
  let ok = true;
  list.forEach((uid, i) => {
    const problem = typeof uid !== 'string' ? `components values must be strings, got ${describeType(uid)}`
      : !ctx.componentUids.has(uid) ? `component ${show(uid)} is not a component of this model`
      : seen.has(uid) ? `component ${show(uid)} is listed twice`
      : null;
    if (problem) {
      opts.issues.add([...opts.path, 'components', String(i)], problem);
      ok = false;
    } else seen.add(uid as string);
  });
  return ok ? (list as string[]).slice() : undefined;
}
