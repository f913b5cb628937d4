// Typed readers for the options of one definition object. Each reader reports a wrong JS type
// as a problem at `[...path, key]` and returns undefined, so parsing carries on after a bad value.
import { describeType, given, isObject, own, show, type JsonObject } from './guards.ts';
import type { Issues, Path } from './issues.ts';

export class OptionReader {
  constructor(readonly def: JsonObject, readonly path: Path, readonly issues: Issues) {}

  has(key: string): boolean {
    return given(this.def, key);
  }

  value(key: string): unknown {
    return own(this.def, key);
  }

  fail(key: string, message: string): undefined {
    this.issues.add([...this.path, key], message);
    return undefined;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value(key);
    return typeof v === 'boolean' ? v : this.fail(key, `${key} must be a boolean, got ${describeType(v)}`);
  }

  /** A string with an upper length bound; `required` reports absence too. */
  string(key: string, maxLength: number, required = false): string | undefined {
    if (!this.has(key)) return required ? this.fail(key, `${key} is required`) : undefined;
    const v = this.value(key);
    if (typeof v !== 'string') return this.fail(key, `${key} must be a string, got ${describeType(v)}`);
    if (v.length > maxLength) return this.fail(key, `${key} must be at most ${maxLength} characters long`);
    return v;
  }

  object(key: string): JsonObject | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value(key);
    if (isObject(v)) return v;
    return this.fail(key, `${key} must be an object, got ${describeType(v)}`);
  }

  nonNegativeInteger(key: string): number | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value(key);
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    return this.fail(key, `${key} must be a non-negative integer, got ${show(v)}`);
  }

  /** A finite number; `integer` also requires a safe integer. */
  number(key: string, integer = false): number | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value(key);
    if (typeof v === 'number' && Number.isFinite(v) && (!integer || Number.isSafeInteger(v))) return v;
    return this.fail(key, `${key} must be ${integer ? 'an integer' : 'a number'}, got ${show(v)}`);
  }

  /**
   * A biginteger bound: Strapi writes these as digit strings. Kept as a number, so only values
   * a double represents exactly are accepted.
   */
  bigintegerBound(key: string): number | undefined {
    if (!this.has(key)) return undefined;
    const v = this.value(key);
    const n = typeof v === 'string' && /^-?\d{1,20}$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
    return this.fail(key, `${key} must be an integer between -(2^53-1) and 2^53-1, got ${show(v)}`);
  }

  /** Reports `low > high` at the `high` key. */
  ordered(lowKey: string, low: number | undefined, highKey: string, high: number | undefined): void {
    if (low !== undefined && high !== undefined && low > high) {
      this.fail(highKey, `${highKey} (${high}) must be greater than or equal to ${lowKey} (${low})`);
    }
  }
}
