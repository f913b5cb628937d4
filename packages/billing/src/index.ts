export { PLANS, planLimits, type PlanLimits, type PlanName } from './plans.ts';
export { effectivePlan, type PlanHolder } from './effective-plan.ts';
export { UsageMeter, currentPeriod } from './usage-meter.ts';
export { usageReport, type UsageReport } from './usage.ts';
export { MonthlyRequests, secondsUntilNextPeriod } from './monthly-requests.ts';
export { DocumentQuota, type DocumentAdmission, type QuotaModel } from './document-quota.ts';
export { Billing, type SubscriptionStatus } from './billing.ts';
export type { BillingAccount, BillingProject } from './checkout.ts';
export type { PlanChangeListener, WebhookOutcome } from './webhook.ts';
