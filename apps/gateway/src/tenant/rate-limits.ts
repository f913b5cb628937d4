// Rate limits of project APIs: each plan's requests per second and per month (when plan limits
// are on), and brute-force protection of the users-permissions auth routes (always on).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MonthlyRequests, planLimits, secondsUntilNextPeriod, type UsageMeter } from '@cms/billing';
import type { RateLimitsConfig } from '@cms/config';
import type { Db } from '@cms/db';
import { RateLimitError } from '@cms/errors';
import { hitLimit, LeasedRate, type WindowCounters } from '@cms/limits';

export class ProjectRateLimits {
  private readonly perSecond: LeasedRate;
  private readonly monthly: MonthlyRequests;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly counters: WindowCounters, private readonly config: RateLimitsConfig, db: Db, usage: UsageMeter) {
    this.perSecond = new LeasedRate(counters);
    this.monthly = new MonthlyRequests(db, usage);
    this.sweeper = setInterval(() => this.perSecond.sweep(), 10_000);
    this.sweeper.unref();
  }

  /** Admit one request to a project's API under its plan, or refuse it with 429. */
  async admit(project: { id: number; plan: string }): Promise<void> {
    if (!this.config.plans) return;
    const limits = planLimits(project.plan);
    if ((await this.monthly.used(project.id)) >= limits.requestsPerMonth) {
      throw new RateLimitError(secondsUntilNextPeriod(),
        `This project has used the ${limits.requestsPerMonth} requests a month of its ${project.plan} plan`);
    }
    await this.perSecond.take(`rps:${project.id}`, limits.requestsPerSecond);
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
    await Promise.all([
      hitLimit(this.counters, `auth:${projectId}:${ip}`, this.config.authPerIp),
      hitLimit(this.counters, `auth:${projectId}:${route}:${ip}:${digest}`, this.config.authAttempts),
    ]);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
