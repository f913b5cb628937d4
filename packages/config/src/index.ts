// Typed configuration, read once from the environment and frozen. No other module reads process.env.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface MediaConfig {
  /** Local-disk storage root when no bucket is configured (MEDIA_DIR, default `{dataDir}/media`). */
  dir: string;
  /** MEDIA_PUBLIC_URL: base of every media URL (a CDN); unset → the bucket's URL, or `/uploads/…` on local disk. */
  publicUrl?: string;
  /** How long an upload answer waits for image formats before answering with what is ready, ms. */
  processingWaitMs: number;
  /** Whether the gateway also processes media jobs (off when apps/worker instances do it). */
  workerInGateway: boolean;
  /** How long a worker holds a job without renewing its lock; a dead worker's job is retaken after it, ms. */
  jobLockMs: number;
  /** MEDIA_MAX_UPLOAD_BYTES: an operator cap on one file, below the plans' own limits. */
  maxUploadBytes?: number;
  /** MEDIA_STORAGE_QUOTA_BYTES: an operator cap on each project's stored files (the plan's quota applies with PLAN_LIMITS). */
  storageQuotaBytes?: number;
}

/** Billing with Stripe (on when STRIPE_SECRET_KEY is set). */
export interface StripeConfig {
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the signing secret (`whsec_…`) of the webhook endpoint `/v1/billing/webhook`. */
  webhookSecret: string;
  /** STRIPE_API_BASE (`http://127.0.0.1:12111`): another address for Stripe's API (a local fake); unset → Stripe itself. */
  api?: { protocol: 'http' | 'https'; host: string; port: number };
  /** STRIPE_PRICE_PRO, STRIPE_PRICE_ENTERPRISE: the price of each paid plan; a plan without one cannot be bought. */
  prices: { pro?: string; enterprise?: string };
  /** BILLING_GRACE_DAYS (default 7): how long a project whose payment failed keeps its paid plan, ms. */
  gracePeriodMs: number;
}

export interface RateLimitsConfig {
  /** PLAN_LIMITS: enforce each plan's requests per second and per month on project APIs (default: on when billing is configured). */
  plans: boolean;
  /** AUTH_RATE_LIMIT_MAX per AUTH_RATE_LIMIT_WINDOW_MS: auth attempts per route, client IP and identifier (brute force). */
  authAttempts: { max: number; windowMs: number };
  /** AUTH_IP_RATE_LIMIT_MAX in the same window: auth requests per client IP and project, whatever the identifier. */
  authPerIp: { max: number; windowMs: number };
}

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Unset → embedded PGlite under `dataDir/pg`. */
  readonly databaseUrl?: string;
  /** Unset → in-process bus and local caches. */
  readonly redisUrl?: string;
  /** Prefix of every Redis key and channel (lets deployments and test runs share one Redis). */
  readonly redisPrefix: string;
  readonly baseDomain: string;
  readonly dataDir: string;
  readonly appSecret: string;
  readonly s3?: S3Config;
  readonly media: MediaConfig;
  /** Outgoing e-mail (end users' password resets and confirmations); unset → written to the log. */
  readonly email: { smtpUrl?: string; from: string };
  /** Unset → billing is off: its routes answer 501 and every project keeps the plan it has. */
  readonly stripe?: StripeConfig;
  readonly limits: RateLimitsConfig;
  /** DASHBOARD_ORIGINS: origins (besides the gateway's own) whose pages may call the management API. */
  readonly dashboardOrigins: readonly string[];
  /** DASHBOARD_DIR: the built dashboard served at `/` (default: the repository's apps/dashboard/dist). */
  readonly dashboardDir: string;
  /** TRUST_PROXY: whose X-Forwarded-For to believe for the client IP (true, a hop count, or addresses/CIDRs). */
  readonly trustProxy: boolean | number | string[];
  readonly otelEndpoint?: string;
  readonly logLevel: string;
  readonly production: boolean;
  /** Max JSON body size in bytes (Strapi: 1 MB). */
  readonly bodyLimit: number;
  /** Statement timeout for content queries, ms. */
  readonly statementTimeoutMs: number;
  readonly dbPoolSize: number;
  /** How many compiled project runtimes one instance keeps. */
  readonly runtimeCacheSize: number;
  /** How many project GraphQL servers (schema + mercurius) one instance keeps. */
  readonly graphqlCacheSize: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function int(env: Env, key: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${key} must be an integer between ${min} and ${max}, got "${raw}"`);
  return n;
}

function str(env: Env, key: string): string | undefined {
  const v = env[key];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = str(env, key)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got "${raw}"`);
}

/** In embedded mode the secret is generated once and kept under the data dir; otherwise it is required. */
function resolveAppSecret(env: Env, dataDir: string, embedded: boolean): string {
  const given = str(env, 'APP_SECRET');
  if (given) {
    if (given.length < 16) throw new ConfigError('APP_SECRET must be at least 16 characters');
    return given;
  }
  if (!embedded) throw new ConfigError('APP_SECRET is required when DATABASE_URL is set');
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Whether `text` is a serialized web origin (`https://app.example.com`, `http://localhost:3000`):
 * http(s), a host, an optional port, nothing else. What a browser sends in `Origin`.
 */
export function isWebOrigin(text: string): boolean {
  if (text.length > 300) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text;
  } catch {
    return false;
  }
}

function originsOf(env: Env, key: string): string[] {
  const origins = (str(env, key) ?? '').split(',').map((o) => o.trim()).filter(Boolean);
  const bad = origins.filter((o) => !isWebOrigin(o));
  if (bad.length > 0) throw new ConfigError(`${key}: not origins (scheme://host[:port]): ${bad.join(', ')}`);
  return origins;
}

/** STRIPE_API_BASE as the `stripe` library's host/port/protocol options. */
function stripeApiOf(env: Env): StripeConfig['api'] {
  const raw = str(env, 'STRIPE_API_BASE');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`STRIPE_API_BASE is not a URL: "${raw}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.username) {
    throw new ConfigError(`STRIPE_API_BASE must be scheme://host[:port] (http or https), got "${raw}"`);
  }
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  return { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'https' ? 443 : 80 };
}

function stripeOf(env: Env): StripeConfig | undefined {
  const secretKey = str(env, 'STRIPE_SECRET_KEY');
  if (secretKey === undefined) return undefined;
  // Without the webhook secret no payment would ever change a plan: refuse to start half-configured.
  const webhookSecret = str(env, 'STRIPE_WEBHOOK_SECRET');
  if (webhookSecret === undefined) throw new ConfigError('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const prices = { pro: str(env, 'STRIPE_PRICE_PRO'), enterprise: str(env, 'STRIPE_PRICE_ENTERPRISE') };
  // A subscription's plan is the plan whose price it carries: one price cannot name two plans.
  if (prices.pro !== undefined && prices.pro === prices.enterprise) throw new ConfigError('STRIPE_PRICE_PRO and STRIPE_PRICE_ENTERPRISE must differ');
  return {
    secretKey,
    webhookSecret,
    api: stripeApiOf(env),
    prices,
    gracePeriodMs: int(env, 'BILLING_GRACE_DAYS', 7, 0, 365) * 24 * 60 * 60 * 1000,
  };
}

function trustProxyOf(env: Env): boolean | number | string[] {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (['true', 'false'].includes(raw.toLowerCase())) return bool(env, 'TRUST_PROXY', false);
  return raw.split(',').map((a) => a.trim()).filter(Boolean);
}

export function loadConfig(env: Env = process.env): Config {
  const databaseUrl = str(env, 'DATABASE_URL');
  const dataDir = resolve(str(env, 'DATA_DIR') ?? '.data');
  const bucket = str(env, 'S3_BUCKET');
  const stripe = stripeOf(env);
  const baseDomain = (str(env, 'BASE_DOMAIN') ?? 'localhost').toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(baseDomain)) throw new ConfigError(`BASE_DOMAIN is not a host name: "${baseDomain}"`);
  // Both auth limits count over the same window.
  const authWindowMs = int(env, 'AUTH_RATE_LIMIT_WINDOW_MS', 60_000, 1000);
  const config: Config = {
    port: int(env, 'PORT', 1337, 0, 65535),
    host: str(env, 'HOST') ?? '127.0.0.1',
    databaseUrl,
    redisUrl: str(env, 'REDIS_URL'),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'cms:',
    baseDomain,
    dataDir,
    appSecret: resolveAppSecret(env, dataDir, !databaseUrl),
    s3: bucket
      ? {
          bucket,
          endpoint: str(env, 'S3_ENDPOINT'),
          region: str(env, 'S3_REGION') ?? 'us-east-1',
          accessKeyId: str(env, 'S3_ACCESS_KEY_ID'),
          secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY'),
        }
      : undefined,
    media: {
      dir: resolve(str(env, 'MEDIA_DIR') ?? join(dataDir, 'media')),
      publicUrl: str(env, 'MEDIA_PUBLIC_URL'),
      processingWaitMs: int(env, 'MEDIA_PROCESSING_WAIT_MS', 10_000, 0, 600_000),
      workerInGateway: bool(env, 'MEDIA_WORKER', true),
      jobLockMs: int(env, 'MEDIA_JOB_LOCK_MS', 30_000, 500, 3_600_000),
      maxUploadBytes: str(env, 'MEDIA_MAX_UPLOAD_BYTES') ? int(env, 'MEDIA_MAX_UPLOAD_BYTES', 0, 1) : undefined,
      storageQuotaBytes: str(env, 'MEDIA_STORAGE_QUOTA_BYTES') ? int(env, 'MEDIA_STORAGE_QUOTA_BYTES', 0, 0) : undefined,
    },
    email: { smtpUrl: str(env, 'SMTP_URL'), from: str(env, 'EMAIL_FROM') ?? 'no-reply@localhost' },
    stripe,
    limits: {
      plans: bool(env, 'PLAN_LIMITS', stripe !== undefined),
      authAttempts: { max: int(env, 'AUTH_RATE_LIMIT_MAX', 10, 1), windowMs: authWindowMs },
      authPerIp: { max: int(env, 'AUTH_IP_RATE_LIMIT_MAX', 300, 1), windowMs: authWindowMs },
    },
    dashboardOrigins: Object.freeze(originsOf(env, 'DASHBOARD_ORIGINS')),
    dashboardDir: resolve(str(env, 'DASHBOARD_DIR') ?? fileURLToPath(new URL('../../../apps/dashboard/dist', import.meta.url))),
    trustProxy: trustProxyOf(env),
    otelEndpoint: str(env, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    production: env.NODE_ENV === 'production',
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024),
    statementTimeoutMs: int(env, 'STATEMENT_TIMEOUT_MS', 10_000, 100),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 20, 1, 1000),
    runtimeCacheSize: int(env, 'RUNTIME_CACHE_SIZE', 500, 1),
    graphqlCacheSize: int(env, 'GRAPHQL_CACHE_SIZE', 100, 1),
  };
  return Object.freeze(config);
}
