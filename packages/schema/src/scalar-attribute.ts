// Scalar attributes: which options apply depends on the type; options that do not apply are
// left in `raw` and ignored, as Strapi does.
import { withBase, type BaseFields } from './attribute-base.ts';
import { defaultProblem } from './defaults.ts';
import { describeType, show } from './guards.ts';
import { LIMITS } from './names.ts';
import type { OptionReader } from './options.ts';
import type { ScalarAttribute, ScalarType } from './types.ts';

const STRING_LIKE: ReadonlySet<ScalarType> = new Set(['string', 'text', 'richtext', 'email', 'password', 'uid']);
const NUMERIC: ReadonlySet<ScalarType> = new Set(['integer', 'biginteger', 'float', 'decimal']);
/** Values that can outgrow a btree entry (~2.7 kB) or are never compared: no `index: true`. */
const UNINDEXABLE: ReadonlySet<ScalarType> = new Set(['text', 'richtext', 'blocks', 'json', 'password']);

export function parseScalar(base: BaseFields, type: ScalarType, unique: boolean, opts: OptionReader): ScalarAttribute {
  const attr = withBase<ScalarAttribute>(base, { kind: 'scalar', type, unique });
  if (STRING_LIKE.has(type)) {
    assign(attr, 'minLength', opts.nonNegativeInteger('minLength'));
    assign(attr, 'maxLength', opts.nonNegativeInteger('maxLength'));
    opts.ordered('minLength', attr.minLength, 'maxLength', attr.maxLength);
    assign(attr, 'regex', readRegex(opts));
  }
  if (NUMERIC.has(type)) {
    const read = (key: string) => (type === 'biginteger' ? opts.bigintegerBound(key) : opts.number(key, type === 'integer'));
    assign(attr, 'min', read('min'));
    assign(attr, 'max', read('max'));
    opts.ordered('min', attr.min, 'max', attr.max);
  }
  if (type === 'enumeration') {
    assign(attr, 'enum', readEnum(opts));
    opts.string('enumName', LIMITS.enumName);
  }
  if (type === 'uid' && opts.has('targetField')) {
    // Whether it names a string/text sibling is checked once all attributes are known.
    assign(attr, 'targetField', opts.string('targetField', LIMITS.attributeName));
  }
  // `index: true` is ours (Strapi keeps and ignores unknown options): a btree index on the column.
  if (opts.boolean('index') === true) {
    if (UNINDEXABLE.has(type)) opts.fail('index', `index is not available on ${type} attributes (values can be too long for an index)`);
    else attr.index = true;
  }
  if (opts.has('default')) {
    const value = opts.value('default');
    const problem = defaultProblem(type, value, attr.enum);
    if (problem) opts.fail('default', problem);
    else attr.default = value;
  }
  return attr;
}

/** Sets optional fields only when present, so normalised attributes carry no `undefined` keys. */
function assign<K extends keyof ScalarAttribute>(attr: ScalarAttribute, key: K, value: ScalarAttribute[K] | undefined): void {
  if (value !== undefined) attr[key] = value;
}

function readRegex(opts: OptionReader): string | undefined {
  const source = opts.string('regex', LIMITS.regex);
  if (source === undefined) return undefined;
  try {
    new RegExp(source);
    return source;
  } catch (err) {
    return opts.fail('regex', `regex is not a valid regular expression: ${(err as Error).message.slice(0, 200)}`);
  }
}

function readEnum(opts: OptionReader): string[] | undefined {
  if (!opts.has('enum')) return opts.fail('enum', 'enum is required for enumeration attributes');
  const values = opts.value('enum');
  if (!Array.isArray(values)) return opts.fail('enum', `enum must be an array of strings, got ${describeType(values)}`);
  if (values.length === 0) return opts.fail('enum', 'enum must not be empty');
  if (values.length > LIMITS.enumValues) return opts.fail('enum', `enum must have at most ${LIMITS.enumValues} values`);
  const seen = new Set<string>();
  let ok = true;
  values.forEach((v, i) => {
    const problem = typeof v !== 'string' ? `enum values must be strings, got ${describeType(v)}`
      : v.length === 0 ? 'enum values must not be empty'
      : v.length > LIMITS.enumValue ? `enum values must be at most ${LIMITS.enumValue} characters long`
      : seen.has(v) ? `enum value ${show(v)} is duplicated`
      : null;
    if (problem) {
      opts.issues.add([...opts.path, 'enum', String(i)], problem);
      ok = false;
    } else seen.add(v as string);
  });
  return ok ? (values as string[]).slice() : undefined;
}
