// Rate limits of project APIs: each plan's requests per second and per month (when plan limits
// are on), and brute-force protection of the users-permissions auth routes (always on).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { effectivePlan, MonthlyRequests, planLimits, secondsUntilNextPeriod, type PlanHolder, type UsageMeter } from '@cms/billing';
import type { RateLimitsConfig } from '@cms/config';
import type { Db } from '@cms/db';
import { RateLimitError, type RateLimitQuota } from '@cms/errors';
import { hitLimit, LeasedRate, type WindowCounters } from '@cms/limits';

export class ProjectRateLimits {
  private readonly perSecond: LeasedRate;
  private readonly monthly: MonthlyRequests;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly counters: WindowCounters, private readonly config: RateLimitsConfig, db: Db, private readonly usage: UsageMeter) {
    this.perSecond = new LeasedRate(counters);
    this.monthly = new MonthlyRequests(db, usage);
    this.sweeper = setInterval(() => this.perSecond.sweep(), 10_000);
    this.sweeper.unref();
  }

  /** Whether plans' request limits are enforced (else `admit` admits everything). */
  get enforced(): boolean {
    return this.config.plans;
  }

  /**
   * Admit one request to a project's API under its plan, or refuse it with 429 (counted in the
   * project's usage as a rejection of the limit that refused it). Answers the
   * monthly quota left after this request, for the RateLimit-* headers (null when plan limits
   * are off); a refusal carries the quota it hit.
   */
  async admit(project: PlanHolder & { id: number; parentId?: number | null }): Promise<RateLimitQuota | null> {
    if (!this.config.plans) return null;
    const plan = effectivePlan(project);
    const limits = planLimits(plan);
    // An environment spends its parent's limits (its requests are metered as the parent's).
    const metered = project.parentId ?? project.id;
    const used = await this.monthly.used(metered);
    const resetSeconds = secondsUntilNextPeriod();
    if (used >= limits.requestsPerMonth) {
      this.usage.reject(metered, 'monthly');
      throw new RateLimitError(resetSeconds, `This project has used the ${limits.requestsPerMonth} requests a month of its ${plan} plan`,
        { limit: limits.requestsPerMonth, remaining: 0, resetSeconds });
    }
    try {
      await this.perSecond.take(`rps:${metered}`, limits.requestsPerSecond);
    } catch (err) {
      if (!(err instanceof RateLimitError)) throw err;
      this.usage.reject(metered, 'perSecond');
      throw new RateLimitError(err.retryAfterSeconds, err.message, { limit: limits.requestsPerSecond, remaining: 0, resetSeconds: err.retryAfterSeconds });
    }
    return { limit: limits.requestsPerMonth, remaining: limits.requestsPerMonth - used - 1, resetSeconds };
  }

  /**
   * Count one attempt at an auth route (login, register, password and confirmation flows):
   * refused past the limit per route, client IP and identifier, or per client IP in all.
   * Identifiers are hashed: the counters never hold e-mail addresses.
   */
  async authAttempt(request: FastifyRequest, projectId: number, route: string, identifier: unknown): Promise<void> {
    const who = typeof identifier === 'string' ? identifier.trim().toLowerCase() : '';
    const digest = createHash('sha256').update(who).digest('hex').slice(0, 24);
    const ip = request.ip;
    try {
      await Promise.all([
        hitLimit(this.counters, `auth:${projectId}:${ip}`, this.config.authPerIp),
        hitLimit(this.counters, `auth:${projectId}:${route}:${ip}:${digest}`, this.config.authAttempts),
      ]);
    } catch (err) {
      if (err instanceof RateLimitError) this.usage.reject(projectId, 'auth');
      throw err;
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
