// A project's usage over its last days (UTC, today included): requests and rejections per day,
// and its busiest routes. The answering instance writes its pending counts first, so its own
// requests are in; other instances' arrive within their meter's flush interval (5 s).
import { compiledQuery, type Db } from '@cms/db';
import type { RejectionKind } from './usage-counts.ts';
import { currentDay, type UsageMeter } from './usage-meter.ts';

export interface UsageDay {
  date: string;
  requests: number;
  /** Requests refused with 429, whatever the limit. */
  rejected: number;
}

export type RejectionCounts = Record<RejectionKind, number>;
export type RejectionDay = { date: string } & RejectionCounts;

export interface RouteUsage {
  route: string;
  requests: number;
}

/** The window's days as rows `d(day)`, oldest first: `$2` (today) and the `$3 - 1` days before. */
const WINDOW = `generate_series($2::date - ($3::int - 1), $2::date, interval '1 day') AS d(day)`;

type Row = Record<string, string | number>;

async function windowRows(db: Db, meter: UsageMeter, text: string, values: unknown[]): Promise<Row[]> {
  await meter.flush();
  return (await db.any(compiledQuery({ text, values }))) as unknown as Row[];
}

/** Every day of the window, zeros included. */
export async function dailyUsage(db: Db, meter: UsageMeter, projectId: number, days: number): Promise<UsageDay[]> {
  const rows = await windowRows(db, meter, `
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(u.requests, 0) AS requests,
      COALESCE(u.rejected_per_second + u.rejected_monthly + u.rejected_auth, 0) AS rejected
    FROM ${WINDOW} LEFT JOIN platform.usage_daily u ON u.project_id = $1 AND u.day = d.day::date
    ORDER BY d.day`, [projectId, currentDay(), days]);
  return rows.map((r) => ({ date: String(r.date), requests: Number(r.requests), rejected: Number(r.rejected) }));
}

/** Rejections by limit for every day of the window, and their totals. */
export async function dailyRejections(db: Db, meter: UsageMeter, projectId: number, days: number): Promise<{ days: RejectionDay[]; total: RejectionCounts }> {
  const rows = await windowRows(db, meter, `
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, COALESCE(u.rejected_per_second, 0) AS "perSecond",
      COALESCE(u.rejected_monthly, 0) AS monthly, COALESCE(u.rejected_auth, 0) AS auth
    FROM ${WINDOW} LEFT JOIN platform.usage_daily u ON u.project_id = $1 AND u.day = d.day::date
    ORDER BY d.day`, [projectId, currentDay(), days]);
  const total: RejectionCounts = { perSecond: 0, monthly: 0, auth: 0 };
  const list = rows.map((r) => {
    const day = { date: String(r.date), perSecond: Number(r.perSecond), monthly: Number(r.monthly), auth: Number(r.auth) };
    total.perSecond += day.perSecond;
    total.monthly += day.monthly;
    total.auth += day.auth;
    return day;
  });
  return { days: list, total };
}

/** The window's busiest routes (ties by name); `other` gathers routes past the daily cap. */
export async function topRoutes(db: Db, meter: UsageMeter, projectId: number, days: number, limit: number): Promise<RouteUsage[]> {
  const rows = await windowRows(db, meter, `
    SELECT route, sum(requests)::bigint AS requests FROM platform.usage_routes
    WHERE project_id = $1 AND day BETWEEN $2::date - ($3::int - 1) AND $2::date
    GROUP BY route ORDER BY 2 DESC, route COLLATE "C" LIMIT $4`, [projectId, currentDay(), days, limit]);
  return rows.map((r) => ({ route: String(r.route), requests: Number(r.requests) }));
}
