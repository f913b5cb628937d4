// Billing state in the control plane: Stripe customers of accounts, subscriptions of projects,
// the webhook events applied, and each project's plan as the registry reads it.
import { column, exec, rows, type Db } from '@cms/db';
import { LIVE_STATUSES } from './subscription-state.ts';

export interface SubscriptionRow {
  id: string;
  projectId: number;
  accountId: number | null;
  customerId: string;
  plan: string;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  graceUntil: string | null;
  /** `created` of the newest event applied to this subscription. */
  eventAt: string;
}

const COLUMNS = `id, project_id AS "projectId", account_id AS "accountId", customer_id AS "customerId", plan, status,
  current_period_end AS "currentPeriodEnd", cancel_at_period_end AS "cancelAtPeriodEnd", grace_until AS "graceUntil", event_at AS "eventAt"`;

// Of a project's subscriptions, the one that sets its plan: a live one, else the latest.
const GOVERNING = `ORDER BY (status = ANY($2::text[])) DESC, updated_at DESC, id LIMIT 1`;

/** The subscription that sets the project's plan (a live one first), or null when it never had one. */
export async function projectSubscription(db: Db, projectId: number): Promise<SubscriptionRow | null> {
  const [row] = await rows<SubscriptionRow>(db, `SELECT ${COLUMNS} FROM platform.subscriptions WHERE project_id = $1 ${GOVERNING}`, [projectId, LIVE_STATUSES]);
  return row ?? null;
}

export async function subscriptionRow(db: Db, id: string): Promise<SubscriptionRow | null> {
  const [row] = await rows<SubscriptionRow>(db, `SELECT ${COLUMNS} FROM platform.subscriptions WHERE id = $1`, [id]);
  return row ?? null;
}

export async function saveSubscription(tx: Db, row: SubscriptionRow): Promise<void> {
  await exec(tx, `INSERT INTO platform.subscriptions
      (id, project_id, account_id, customer_id, plan, status, current_period_end, cancel_at_period_end, grace_until, event_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
    ON CONFLICT (id) DO UPDATE SET customer_id = EXCLUDED.customer_id, plan = EXCLUDED.plan, status = EXCLUDED.status,
      current_period_end = EXCLUDED.current_period_end, cancel_at_period_end = EXCLUDED.cancel_at_period_end,
      grace_until = EXCLUDED.grace_until, event_at = GREATEST(platform.subscriptions.event_at, EXCLUDED.event_at), updated_at = now()`,
  [row.id, row.projectId, row.accountId, row.customerId, row.plan, row.status, row.currentPeriodEnd, row.cancelAtPeriodEnd, row.graceUntil, row.eventAt]);
}

/**
 * Set the project's plan from its governing subscription (none live → `free`); returns its slug.
 * Runs under the project's billing lock, so two subscriptions of one project never interleave.
 */
export async function applyProjectPlan(tx: Db, projectId: number): Promise<string | null> {
  await lock(tx, `billing-project:${projectId}`);
  const [slug] = await column(tx, `WITH governing AS (
      SELECT plan, grace_until FROM platform.subscriptions WHERE project_id = $1 AND status = ANY($2::text[]) ORDER BY updated_at DESC, id LIMIT 1)
    UPDATE platform.projects SET plan = COALESCE((SELECT plan FROM governing), 'free'), plan_grace_until = (SELECT grace_until FROM governing)
    WHERE id = $1 RETURNING slug`, [projectId, LIVE_STATUSES]);
  // Its environments are on its plan.
  await exec(tx, `UPDATE platform.projects e SET plan = p.plan, plan_grace_until = p.plan_grace_until
    FROM platform.projects p WHERE p.id = $1 AND e.parent_id = $1`, [projectId]);
  return slug ?? null;
}

/** Record a webhook event as applied; false when it already was (or is being, by another instance). */
export async function recordEvent(tx: Db, id: string, type: string): Promise<boolean> {
  // A concurrent insert of the same id waits for the first transaction: it sees a conflict if
  // that one commits, and inserts (applying the event itself) if it rolls back.
  const inserted = await column(tx, 'INSERT INTO platform.stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [id, type]);
  return inserted.length === 1;
}

/** A transaction-scoped lock on `key` (subscriptions, projects' plans, accounts' customers). */
export async function lock(tx: Db, key: string): Promise<void> {
  await exec(tx, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}

export async function customerOfAccount(db: Db, accountId: number): Promise<string | null> {
  const [customer] = await column(db, 'SELECT customer_id FROM platform.billing_customers WHERE account_id = $1', [accountId]);
  return customer ?? null;
}

export async function saveCustomer(tx: Db, accountId: number, customerId: string): Promise<void> {
  await exec(tx, 'INSERT INTO platform.billing_customers (account_id, customer_id) VALUES ($1, $2)', [accountId, customerId]);
}

export async function isProjectOwner(db: Db, projectId: number, accountId: number): Promise<boolean> {
  const found = await column(db, `SELECT 1 FROM platform.project_members WHERE project_id = $1 AND account_id = $2 AND role = 'owner'`, [projectId, accountId]);
  return found.length === 1;
}
