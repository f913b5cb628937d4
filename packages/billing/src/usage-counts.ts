// One project's usage counted in memory between two writes of the meter.

/** The limit that refused a request: the plan's requests per second, its monthly quota, or an auth route's brute-force limit. */
export type RejectionKind = 'perSecond' | 'monthly' | 'auth';
export const REJECTION_KINDS: readonly RejectionKind[] = ['perSecond', 'monthly', 'auth'];

/** Distinct routes kept per project and day; requests of any further route count as `other`. */
export const ROUTES_PER_DAY = 200;
export const OTHER_ROUTE = 'other';

export class ProjectCounts {
  requests = 0;
  /** Requests by route, at most ROUTES_PER_DAY of them plus `other`. */
  readonly routes = new Map<string, number>();
  readonly rejected: Record<RejectionKind, number> = { perSecond: 0, monthly: 0, auth: 0 };

  request(route: string, n: number): void {
    this.requests += n;
    const count = this.routes.get(route);
    if (count !== undefined) this.routes.set(route, count + n);
    else if (this.routes.size < ROUTES_PER_DAY) this.routes.set(route, n);
    else this.routes.set(OTHER_ROUTE, (this.routes.get(OTHER_ROUTE) ?? 0) + n);
  }

  /** Take in another batch's counts (a write that failed, to be tried again). */
  add(other: ProjectCounts): void {
    for (const [route, n] of other.routes) this.request(route, n);
    for (const kind of REJECTION_KINDS) this.rejected[kind] += other.rejected[kind];
  }
}
