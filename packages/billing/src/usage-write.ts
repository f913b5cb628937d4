// The meter's write: one statement for every project of a batch — the month's requests
// (usage_counters), the day's requests and rejections (usage_daily) and the day's requests by
// route (usage_routes, capped at ROUTES_PER_DAY routes a day, the rest under 'other').
import { compiledQuery, type Db } from '@cms/db';
import { OTHER_ROUTE, ROUTES_PER_DAY, type ProjectCounts } from './usage-counts.ts';

/** Days of route counts kept (the longest window the usage routes answer). */
export const USAGE_HISTORY_DAYS = 90;

// Rows are written in key order so that two instances writing at once lock them in the same
// order (no deadlock). New routes of a day past the cap go to 'other', the busiest first; two
// instances adding new routes at the same moment may pass the cap by a few.
const WRITE = `
  WITH batch AS (
    SELECT u.* FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[])
      AS u(project_id, requests, per_second, monthly, auth)
    WHERE EXISTS (SELECT 1 FROM platform.projects p WHERE p.id = u.project_id)
  ), monthly AS (
    INSERT INTO platform.usage_counters (project_id, period, requests)
    SELECT project_id, $9::date, requests FROM batch WHERE requests > 0 ORDER BY project_id
    ON CONFLICT (project_id, period) DO UPDATE SET requests = platform.usage_counters.requests + EXCLUDED.requests
  ), daily AS (
    INSERT INTO platform.usage_daily AS d (project_id, day, requests, rejected_per_second, rejected_monthly, rejected_auth)
    SELECT project_id, $10::date, requests, per_second, monthly, auth FROM batch ORDER BY project_id
    ON CONFLICT (project_id, day) DO UPDATE SET
      requests = d.requests + EXCLUDED.requests,
      rejected_per_second = d.rejected_per_second + EXCLUDED.rejected_per_second,
      rejected_monthly = d.rejected_monthly + EXCLUDED.rejected_monthly,
      rejected_auth = d.rejected_auth + EXCLUDED.rejected_auth
  ), incoming AS (
    SELECT r.project_id, r.route, r.n, (k.route IS NULL AND r.route <> $12::text) AS new
    FROM unnest($6::bigint[], $7::text[], $8::bigint[]) AS r(project_id, route, n)
    JOIN batch b ON b.project_id = r.project_id
    LEFT JOIN platform.usage_routes k ON k.project_id = r.project_id AND k.day = $10::date AND k.route = r.route
  ), known AS (
    SELECT project_id, count(*) AS routes FROM platform.usage_routes
    WHERE day = $10::date AND project_id = ANY($1::bigint[]) AND route <> $12 GROUP BY project_id
  ), capped AS (
    SELECT i.project_id, i.n,
      CASE WHEN NOT i.new OR COALESCE(k.routes, 0) + row_number() OVER (PARTITION BY i.project_id, i.new ORDER BY i.n DESC, i.route) <= $11
        THEN i.route ELSE $12 END AS route
    FROM incoming i LEFT JOIN known k ON k.project_id = i.project_id
  )PRUNE
  INSERT INTO platform.usage_routes AS r (project_id, day, route, requests)
  SELECT project_id, $10::date, route, sum(n) FROM capped GROUP BY project_id, route ORDER BY project_id, route
  ON CONFLICT (project_id, day, route) DO UPDATE SET requests = r.requests + EXCLUDED.requests`;

// Once a day per instance: route rows older than the history kept (by the day index).
const PRUNE = `, pruned AS (DELETE FROM platform.usage_routes WHERE day < $10::date - ${USAGE_HISTORY_DAYS})`;

export async function writeUsage(
  db: Db, batch: ReadonlyMap<number, ProjectCounts>, at: { monthStart: string; day: string; prune: boolean },
): Promise<void> {
  const ids: number[] = [];
  const requests: number[] = [];
  const perSecond: number[] = [];
  const monthly: number[] = [];
  const auth: number[] = [];
  const routeIds: number[] = [];
  const routes: string[] = [];
  const routeCounts: number[] = [];
  for (const [id, counts] of batch) {
    ids.push(id);
    requests.push(counts.requests);
    perSecond.push(counts.rejected.perSecond);
    monthly.push(counts.rejected.monthly);
    auth.push(counts.rejected.auth);
    for (const [route, n] of counts.routes) {
      routeIds.push(id);
      routes.push(route);
      routeCounts.push(n);
    }
  }
  await db.query(compiledQuery({
    text: WRITE.replace('PRUNE', at.prune ? PRUNE : ''),
    values: [ids, requests, perSecond, monthly, auth, routeIds, routes, routeCounts, at.monthStart, at.day, ROUTES_PER_DAY, OTHER_ROUTE],
  }));
}
