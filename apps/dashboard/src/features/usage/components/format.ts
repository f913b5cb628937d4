// How usage figures read in the dashboard (English, grouped digits; sizes in binary units).
const number = new Intl.NumberFormat('en');

export const formatNumber = (n: number): string => number.format(n);

export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${number.format(Math.round(n / 1024 ** 3))} GB`;
  if (n >= 1024 ** 2) return `${number.format(Math.round(n / 1024 ** 2))} MB`;
  if (n >= 1024) return `${number.format(Math.round(n / 1024))} KB`;
  return `${number.format(n)} B`;
}

/** A UTC day (`YYYY-MM-DD`) as a short date: `Jul 3`. */
export const shortDay = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A UTC day as a full date: `July 3, 2026`. */
export const longDay = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A usage period (`YYYY-MM`) as `November 2026`. */
export const monthName = (period: string): string =>
  new Date(`${period}-01T00:00:00Z`).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
