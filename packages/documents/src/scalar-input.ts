// One scalar attribute of a write body → the text bound as `$n::<sqlType>`,
// with Strapi's yup messages (§1.4). Also the small shared pieces of body validation: where a
// value sits (`FieldSite`), how a field error is built, and a stack-free inspection of JSON values.
import type { FieldError } from '@cms/errors';
import { castValue, INT32, INT64, INT_RE, NUMBER_RE, temporalInputError } from '@cms/query';
import type { ScalarAttribute, ScalarType } from '@cms/schema';
import type { ScalarWrite } from './write-input.ts';

export const BODY_LIMITS = {
  /** Nesting of json / blocks values (and of any value echoed back in an error). */
  jsonDepth: 64,
  /** Relation targets, file ids, component / dynamic-zone items in one attribute. */
  listItems: 1000,
  /** Digits in a decimal's mantissa (Postgres numeric takes more; nobody needs more). */
  decimalDigits: 1000,
  decimalExponent: 1000,
  /** Rendered values in messages are cut to this many characters. */
  shownValue: 500,
} as const;

/** Where a value sits: `path` for `details.errors[].path`, `label` (yup style) for messages, and the error sink. */
export interface FieldSite {
  path: string[];
  label: string;
  errors: FieldError[];
}

export const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface JsonFacts {
  tooDeep: boolean;
  nul: boolean;
  loneSurrogate: boolean;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Walk a JSON value without recursion: nesting beyond `jsonDepth` (walk stops there), NUL or lone surrogates in strings and keys. */
export function inspectJson(value: unknown): JsonFacts {
  const facts: JsonFacts = { tooDeep: false, nul: false, loneSurrogate: false };
  const text = (s: string) => {
    if (s.includes('\0')) facts.nul = true;
    if (LONE_SURROGATE.test(s)) facts.loneSurrogate = true;
  };
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') text(v);
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= BODY_LIMITS.jsonDepth) {
      facts.tooDeep = true;
      return facts;
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push([x, depth + 1]);
    } else {
      for (const [k, x] of Object.entries(v)) {
        text(k);
        stack.push([x, depth + 1]);
      }
    }
  }
  return facts;
}

const isShowable = (value: unknown): boolean => !inspectJson(value).tooDeep;

/** JSON text of a value for a message (never throws: too-deep values are elided, long ones cut). */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (!isShowable(value)) return '[nested too deeply]';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > BODY_LIMITS.shownValue ? `${text.slice(0, BODY_LIMITS.shownValue)}…` : text;
}

/** A `details.errors[]` entry; `value` is the offending input (left out when it could not be serialised safely). */
export function fieldError(site: Pick<FieldSite, 'path'>, message: string, value: unknown): FieldError {
  const error: FieldError = { path: site.path, message, name: 'ValidationError' };
  if (value === undefined) error.value = null;
  else if (isShowable(value)) error.value = value;
  return error;
}

/** Record a field error at `site`; always undefined, so `return fail(…)` ends a parser. */
export function fail(site: FieldSite, message: string, value: unknown): undefined {
  site.errors.push(fieldError(site, message, value));
  return undefined;
}

/** ``x must be a `word` type, but the final value was: `…`.`` */
export function typeError(site: FieldSite, word: string, value: unknown): undefined {
  return fail(site, typeMessage(site.label, word, value), value);
}

/** yup's type word for the attribute type (what Strapi's "must be a `x` type" says). */
export function typeWord(type: ScalarType): string {
  switch (type) {
    case 'integer': case 'biginteger': case 'float': case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date': case 'time': case 'datetime':
      return 'date';
    case 'blocks':
      return 'array';
    case 'json':
      return 'mixed';
    default:
      return 'string';
  }
}

export const typeMessage = (label: string, word: string, value: unknown): string =>
  `${label} must be a \`${word}\` type, but the final value was: \`${value === null ? 'null' : show(value)}\`.`;
const nanMessage = (label: string, value: unknown, final = 'NaN'): string =>
  `${label} must be a \`number\` type, but the final value was: \`${final}\` (cast from the value \`${show(value)}\`).`;
const minMessage = (label: string, min: number | bigint | string) => `${label} must be greater than or equal to ${min}`;
const maxMessage = (label: string, max: number | bigint | string) => `${label} must be less than or equal to ${max}`;
export const nulMessage = (label: string) => `${label} must not contain the NUL character`;

const UID_RE = /^[A-Za-z0-9-_.~]*$/;
// The WHATWG (and yup 1.x) address pattern: bounded quantifiers, no catastrophic backtracking.
const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

const regexCache = new Map<string, RegExp | null>();

function compiled(source: string): RegExp | null {
  let re = regexCache.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source);
    } catch {
      re = null; // parseModel refuses invalid patterns; never fail a write on one
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(source, re);
  }
  return re;
}

/** Validation run for one value. */
interface Check {
  attr: ScalarAttribute;
  site: FieldSite;
  publishing: boolean;
}

const failAt = (c: Check, message: string, value: unknown): undefined => fail(c.site, message, value);

/** A finite number or a numeric string (trimmed), as text. */
function numberText(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    return NUMBER_RE.test(text) ? text : undefined;
  }
  return undefined;
}

/** Attribute `min` (publishing writes only) and `max` (always). */
function bounds(c: Check, n: number | bigint, value: unknown): boolean {
  const { min, max } = c.attr;
  let ok = true;
  if (c.publishing && min !== undefined && n < min) ok = !!failAt(c, minMessage(c.site.label, min), value);
  if (max !== undefined && n > max) ok = !!failAt(c, maxMessage(c.site.label, max), value);
  return ok;
}

function rangeError(c: Check, n: number | bigint, range: { min: bigint; max: bigint }, value: unknown): boolean {
  if (n < range.min) return !failAt(c, minMessage(c.site.label, range.min), value);
  if (n > range.max) return !failAt(c, maxMessage(c.site.label, range.max), value);
  return false;
}

const castFail = () => new Error('cast');

function parseInteger(c: Check, value: unknown): ScalarWrite | undefined {
  const text = numberText(value);
  if (text === undefined) return failAt(c, nanMessage(c.site.label, value), value);
  const n = Number(text);
  if (Number.isFinite(n) && !Number.isInteger(n)) return failAt(c, `${c.site.label} must be an integer`, value);
  // Range errors report the cast number (`"11"` → `value: 11`), as Strapi's casting validator does.
  if (rangeError(c, n, INT32, n)) return undefined;
  if (!bounds(c, n, n)) return undefined;
  return castValue('integer', String(n), castFail);
}

function parseBigInteger(c: Check, value: unknown): ScalarWrite | undefined {
  const text = numberText(value);
  if (text === undefined) return failAt(c, nanMessage(c.site.label, value), value);
  let big: bigint;
  if (typeof value === 'string' && INT_RE.test(text)) {
    big = BigInt(text);
    if (rangeError(c, big, INT64, text)) return undefined;
  } else {
    const n = Number(text);
    if (Number.isFinite(n) && !Number.isInteger(n)) return failAt(c, `${c.site.label} must be an integer`, value);
    if (rangeError(c, n, INT64, n)) return undefined;
    if (!Number.isSafeInteger(n)) {
      return failAt(c, `${c.site.label} must be a safe integer (send larger values as a string of digits)`, value);
    }
    big = BigInt(n);
  }
  if (!bounds(c, big, big.toString())) return undefined;
  return castValue('biginteger', big.toString(), castFail);
}

function parseFloat_(c: Check, value: unknown): ScalarWrite | undefined {
  const text = numberText(value);
  if (text === undefined) return failAt(c, nanMessage(c.site.label, value), value);
  const n = Number(text);
  if (!Number.isFinite(n)) return failAt(c, nanMessage(c.site.label, value, String(n)), value);
  if (!bounds(c, n, n)) return undefined;
  return castValue('float', text, castFail);
}

function parseDecimal(c: Check, value: unknown): ScalarWrite | undefined {
  const text = numberText(value);
  if (text === undefined) return failAt(c, nanMessage(c.site.label, value), value);
  const [mantissa, exponent = '0'] = text.split(/[eE]/);
  const digits = mantissa!.replace(/[^0-9]/g, '').length;
  if (digits > BODY_LIMITS.decimalDigits || Math.abs(Number(exponent)) > BODY_LIMITS.decimalExponent) {
    return failAt(c, nanMessage(c.site.label, value, String(Number(text))), value);
  }
  let out: string;
  try {
    out = castValue('decimal', text, castFail);
  } catch {
    return failAt(c, nanMessage(c.site.label, value), value);
  }
  if (!bounds(c, Number(text), Number(text))) return undefined;
  return out;
}

/** castValue, its failure turned into one field error with `message`. */
function cast(c: Check, type: ScalarType, value: unknown, message: string): ScalarWrite | undefined {
  try {
    return castValue(type, value, castFail);
  } catch {
    return failAt(c, message, value);
  }
}

/** string, text, richtext, email, uid, password, enumeration. Numbers and booleans are stringified. */
function parseText(c: Check, value: unknown): ScalarWrite | undefined {
  const { attr, site } = c;
  let text: string;
  if (typeof value === 'string') text = value;
  else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') text = String(value);
  else return failAt(c, typeMessage(site.label, 'string', value), value);
  if (text.includes('\0')) return failAt(c, nulMessage(site.label), value);
  if (attr.type === 'enumeration') {
    const allowed = attr.enum ?? [];
    if (!allowed.includes(text)) return failAt(c, `${site.label} must be one of the following values: ${allowed.join(', ')}, `, value);
    return text;
  }
  const before = c.site.errors.length;
  if (c.publishing && attr.minLength !== undefined && text.length < attr.minLength) {
    failAt(c, `${site.label} must be at least ${attr.minLength} characters`, value);
  }
  if (attr.maxLength !== undefined && text.length > attr.maxLength) {
    failAt(c, `${site.label} must be at most ${attr.maxLength} characters`, value);
  }
  if (attr.type === 'uid') {
    const re = attr.regex !== undefined ? compiled(attr.regex) : UID_RE;
    if (re && !re.test(text)) failAt(c, `${site.label} must match the following: "${String(re)}"`, value);
  } else if (attr.regex !== undefined && c.publishing && (text !== '' || attr.required)) {
    const re = compiled(attr.regex);
    if (re && !re.test(text)) failAt(c, `${site.label} must match the following: "${String(re)}"`, value);
  }
  if (attr.type === 'email' && text !== '' && !EMAIL_RE.test(text)) failAt(c, `${site.label} must be a valid email`, value);
  return c.site.errors.length === before ? text : undefined;
}

function parseJson(c: Check, value: unknown): ScalarWrite | undefined {
  const { site } = c;
  if (c.attr.type === 'blocks' && (!Array.isArray(value) || !value.every(isDict))) {
    return failAt(c, typeMessage(site.label, 'array', value), value);
  }
  const facts = inspectJson(value);
  if (facts.tooDeep) return failAt(c, `${site.label} is nested too deeply (at most ${BODY_LIMITS.jsonDepth} levels)`, value);
  if (facts.nul) return failAt(c, nulMessage(site.label), value);
  if (facts.loneSurrogate) return failAt(c, `${site.label} must not contain unpaired surrogate characters`, value);
  return JSON.stringify(value);
}

/**
 * Validate and cast one present value (null included). Errors go to `site.errors`; the result is
 * undefined then. Publishing writes also check required, min, minLength and regex.
 */
export function scalarInput(site: FieldSite, attr: ScalarAttribute, value: unknown, publishing: boolean): ScalarWrite | undefined {
  const c: Check = { attr, site, publishing };
  if (value === null || value === undefined) {
    if (attr.required && publishing) return failAt(c, typeMessage(site.label, typeWord(attr.type), null), null);
    return null;
  }
  // schema defaults may omit a time's seconds (`10:30`), which body input may not
  if (attr.type === 'time' && value === attr.default && typeof value === 'string' && /^\d{2}:\d{2}$/.test(value)) value = `${value}:00`;
  switch (attr.type) {
    case 'integer':
      return parseInteger(c, value);
    case 'biginteger':
      return parseBigInteger(c, value);
    case 'float':
      return parseFloat_(c, value);
    case 'decimal':
      return parseDecimal(c, value);
    case 'boolean':
      return cast(c, 'boolean', value, typeMessage(site.label, 'boolean', value));
    case 'date': case 'time': case 'datetime': {
      const message = temporalInputError(attr.type, value);
      return message === null ? castValue(attr.type, value, castFail) : failAt(c, message, value);
    }
    case 'json':
    case 'blocks':
      return parseJson(c, value);
    default:
      return parseText(c, value);
  }
}
