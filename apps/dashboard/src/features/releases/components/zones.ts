// Schedules are chosen on the wall clock of an IANA time zone (`Europe/Paris`): the pickers give a
// local date-time (`YYYY-MM-DD HH:mm:ss`) that becomes an instant in that zone, DST included.
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** The browser's own zone: the pickers' default. */
export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Every zone this browser knows, the browser's own (and UTC) included. */
export function timeZones(): string[] {
  const zones = new Set(Intl.supportedValuesOf('timeZone'));
  zones.add('UTC');
  zones.add(browserZone());
  return [...zones].sort();
}

const LOCAL_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The instant (ISO, UTC) a local date-time names on `zone`'s wall clock. */
export const zonedToInstant = (local: string, zone: string) => dayjs.tz(local, zone).toISOString();

/** An instant as a local date-time on `zone`'s wall clock (what the picker shows). */
export const instantToZoned = (iso: string, zone: string) => dayjs(iso).tz(zone).format(LOCAL_FORMAT);

/** Today's date on `zone`'s wall clock (the pickers' first day). */
export const todayIn = (zone: string) => dayjs().tz(zone).format('YYYY-MM-DD');

/** `Dec 1, 2026, 9:00 AM (Europe/Paris)`: an instant on its zone's wall clock, the zone named. */
export function zonedLabel(iso: string, zone: string): string {
  return `${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone })} (${zone})`;
}

/** What is wrong with a chosen time (null: nothing): none chosen, or not in the future. */
export function scheduleProblem(local: string | null, zone: string): string | null {
  if (!local) return 'Pick a date and time';
  return Date.parse(zonedToInstant(local, zone)) <= Date.now() ? 'Choose a time in the future' : null;
}
