export { PLANS, planLimits, type PlanLimits, type PlanName } from './plans.ts';
export { UsageMeter, currentPeriod } from './usage-meter.ts';
export { usageReport, type UsageReport } from './usage.ts';
export { MonthlyRequests, secondsUntilNextPeriod } from './monthly-requests.ts';
