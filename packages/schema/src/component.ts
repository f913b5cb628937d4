// One component's schema.json. Components are owned by other rows, so they have no kind,
// no draft/publish and no localization of their own; their relations must be one-way and
// they may not hold dynamic zones (checked by the attribute parsers).
import { parseAttributes } from './attributes.ts';
import { readCollectionName, readDisplayName, readInfo, type ModelContext, type Parsed } from './content-type.ts';
import { own, show, type JsonObject } from './guards.ts';
import type { Path } from './issues.ts';
import { KEBAB_CASE, LIMITS } from './names.ts';
import { OptionReader } from './options.ts';
import type { Component } from './types.ts';

export function parseComponent(ctx: ModelContext, uid: string, schema: JsonObject): Parsed<Component> {
  const path = ['components', uid];
  const [category, name] = splitComponentUid(ctx, uid, path);
  const opts = new OptionReader(schema, path, ctx.issues);
  const info = readInfo(opts);
  const displayName = info ? readDisplayName(info) : '';
  const fallback = category && name ? `components_${category}_${name}s`.replaceAll('-', '_') : '';
  const collectionName = readCollectionName(opts, fallback);
  const attrs = parseAttributes({ ...ctx, kind: 'component', uid, localized: false }, own(schema, 'attributes'), path);
  const value: Component = {
    uid, category, name, collectionName, displayName,
    attributes: Object.fromEntries(attrs.attributes), raw: schema,
  };
  return { value, path, attrs };
}

/** `{category}.{name}`, both kebab-case; ['', ''] when malformed. */
function splitComponentUid(ctx: ModelContext, uid: string, path: Path): [string, string] {
  const parts = uid.split('.');
  const ok = parts.length === 2 && parts.every((p) => p.length <= LIMITS.componentNamePart && KEBAB_CASE.test(p));
  if (ok) return [parts[0]!, parts[1]!];
  ctx.issues.add(path, `component uid ${show(uid)} must be {category}.{name}, both kebab-case and at most ${LIMITS.componentNamePart} characters`);
  return ['', ''];
}
