// A project's delivery settings (`settings.delivery`, docs/delivery.md): how long CDNs may keep
// its public published answers (`sMaxAge`, seconds) and whether the gateways keep its answers in
// their shared answer cache (`answerCache`).
import { ValidationError, type FieldError } from '@cms/errors';

export interface DeliverySettings {
  /** `s-maxage` of public published reads: 0 = CDNs revalidate every time. */
  sMaxAge: number;
  /** Off: every read runs its SQL (for a project that measures or debugs its reads). */
  answerCache: boolean;
}

export const DEFAULT_DELIVERY_SETTINGS: Readonly<DeliverySettings> = Object.freeze({ sMaxAge: 60, answerCache: true });
/** One year, HTTP's customary maximum. */
export const MAX_S_MAXAGE = 31_536_000;
/** What CDNs may serve while they fetch a fresh answer (the contract's fixed value). */
export const STALE_WHILE_REVALIDATE = 300;

// Per stored settings object (replaced on every change): a read merges nothing.
const effective = new WeakMap<object, Readonly<DeliverySettings & { cacheControl: string }>>();

/** Effective settings, with the public answers' `Cache-Control` value made once. */
export function deliverySettingsOf(projectSettings: Record<string, unknown> | undefined): Readonly<DeliverySettings & { cacheControl: string }> {
  const holder = projectSettings ?? DEFAULT_DELIVERY_SETTINGS;
  let settings = effective.get(holder);
  if (!settings) {
    const stored = projectSettings?.delivery;
    const merged = stored && typeof stored === 'object' ? { ...DEFAULT_DELIVERY_SETTINGS, ...(stored as Partial<DeliverySettings>) } : { ...DEFAULT_DELIVERY_SETTINGS };
    settings = Object.freeze({ ...merged, cacheControl: `public, s-maxage=${merged.sMaxAge}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}` });
    effective.set(holder, settings);
  }
  return settings;
}

/** The stored part of the settings (without the derived header). */
export const storedDelivery = ({ sMaxAge, answerCache }: DeliverySettings): DeliverySettings => ({ sMaxAge, answerCache });

/** An update (either key or both) over `current`, or a ValidationError naming every bad key. */
export function parseDeliverySettings(body: unknown, current: DeliverySettings): DeliverySettings {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Delivery settings must be an object');
  const next = storedDelivery(current);
  const errors: FieldError[] = [];
  const fail = (key: string, message: string) => errors.push({ path: [key], message, name: 'ValidationError' });
  for (const [key, value] of Object.entries(body)) {
    if (key === 'sMaxAge') {
      if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_S_MAXAGE) next.sMaxAge = value;
      else fail(key, `sMaxAge must be an integer number of seconds from 0 to ${MAX_S_MAXAGE}`);
    } else if (key === 'answerCache') {
      if (typeof value === 'boolean') next.answerCache = value;
      else fail(key, 'answerCache must be true or false');
    } else {
      fail(key.slice(0, 100), `${key.slice(0, 100)} is not a valid key`);
    }
  }
  if (errors.length > 0) throw ValidationError.fromFieldErrors(errors);
  return next;
}
