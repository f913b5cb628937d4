// The delivery side of one gateway (docs/delivery.md): its answer cache, the shared content
// versions that keep it exact, and the CDN purges. `changed` is called after every committed
// change of what a project's content API answers, before the change is answered.
import { ANSWER_CACHE_SHARE, effectivePlan, type PlanHolder } from '@cms/billing';
import type { Config } from '@cms/config';
import { AnswerCache, CdnPurger, createContentVersions, projectKey, type ContentVersions } from '@cms/delivery';
import { getMeter, telemetryState, type Logger } from '@cms/telemetry';

/** The share of the budget a project holds without plan limits. */
const UNLIMITED_SHARE = 0.2;

export class Delivery {
  readonly answers: AnswerCache;
  readonly versions: ContentVersions;
  readonly purger: CdnPurger;

  constructor(private readonly config: Config, private readonly logger: Logger) {
    this.answers = new AnswerCache(config.delivery.answerCacheBytes);
    this.versions = createContentVersions(config.redisUrl, config.redisPrefix, logger);
    this.purger = new CdnPurger(config.delivery.cdnPurge, logger);
    // Changes made on other gateways while Redis was out of reach may never have been recorded
    // there: nothing kept from before is trusted.
    this.versions.onLost(() => this.answers.clear());
    observeAnswerCache(this.answers);
  }

  /**
   * A change of the project committed: a new content version (awaited: the change's answer
   * waits for it, so no read that starts after it reuses an older answer, on any gateway), and
   * the CDN told what to purge — `keys` (the changed documents' `t:` and `d:` keys) or, without
   * them, the whole project. `slug`: the project itself changed (settings, model, roles, tokens):
   * its stamp moves on too, so every gateway reloads its copy before its next read (answers.ts).
   */
  async changed(projectId: number, keys?: readonly string[], slug?: string): Promise<void> {
    this.answers.dropProject(projectId);
    try {
      await this.versions.bump(projectId, slug);
    } catch (err) {
      // Committed all the same; the bump is retried until Redis takes it (versions.ts).
      this.logger.error({ err, projectId }, 'could not record a content change in Redis: the answer caches skip this project until it is');
    }
    this.purger.purge(keys && keys.length > 0 ? keys : [projectKey(projectId)]);
  }

  /** The bytes of the answer cache a project may hold (its plan's share). */
  shareOf(project: PlanHolder): number {
    const share = this.config.limits.plans ? ANSWER_CACHE_SHARE[effectivePlan(project)] : UNLIMITED_SHARE;
    return Math.floor(this.answers.budgetBytes * share);
  }

  async close(): Promise<void> {
    await this.purger.close();
    await this.versions.close();
  }
}

/** `cms.answer_cache.*` read at each collection: lookups by result, evictions, bytes and entries held. */
function observeAnswerCache(cache: AnswerCache): void {
  if (!telemetryState.metrics) return;
  const meter = getMeter();
  const lookups = meter.createObservableCounter('cms.answer_cache.lookups', { description: 'Answer cache lookups (result=hit|miss).' });
  const evictions = meter.createObservableCounter('cms.answer_cache.evictions', { description: 'Answers evicted to stay within the byte budget or a project\'s share.' });
  const bytes = meter.createObservableGauge('cms.answer_cache.bytes', { unit: 'By', description: 'Bytes of answers held (ANSWER_CACHE_MB is the budget).' });
  const entries = meter.createObservableGauge('cms.answer_cache.entries', { description: 'Answers held.' });
  meter.addBatchObservableCallback((result) => {
    const s = cache.snapshot();
    result.observe(lookups, s.hits, { result: 'hit' });
    result.observe(lookups, s.misses, { result: 'miss' });
    result.observe(evictions, s.evictions);
    result.observe(bytes, s.bytes);
    result.observe(entries, s.entries);
  }, [lookups, evictions, bytes, entries]);
}
