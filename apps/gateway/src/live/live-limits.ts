// How many live streams a project may hold open (its plan's `LIVE_STREAMS`; none without plan limits).
import { effectivePlan, LIVE_STREAMS, type PlanHolder } from '@cms/billing';
import type { Config } from '@cms/config';

export function liveStreamLimitOf(config: Config, project: PlanHolder): number | null {
  return config.limits.plans ? LIVE_STREAMS[effectivePlan(project)] : null;
}
