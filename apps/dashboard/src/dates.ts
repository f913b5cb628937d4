// Dates as the pages show them, in the browser's locale and time zone.

/** A date and time: `Nov 28, 2026, 3:32 PM`. */
export const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A date alone: `Dec 5, 2026`. */
export const dateOnly = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** To the second (versions made within a minute): `Nov 28, 2026, 3:32:05 PM`. */
export const dateTimeSeconds = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
