// CDN purges: the surrogate keys of every change (`p:{projectId}`, `t:{uid}`, `d:{documentId}`, the
// keys the content API's public answers carry in `Surrogate-Key`) sent to CDN_PURGE_URL, so a CDN
// drops the answers a change made old instead of serving them until their `s-maxage` runs out.
//
// `purge()` never throws and never waits: keys are gathered for a short window, de-duplicated and
// sent by one background sender, one batch at a time (keys arriving while a batch is in flight
// wait for the next one, so a slow or failing CDN makes batches larger, not more numerous).
// A batch is split into requests of at most 256 keys and ~8 KB of keys (Fastly's limit per bulk
// purge, and a header size every proxy accepts). A request that fails (network error, timeout,
// 408, 429 or 5xx) is retried with backoff for about 30 s, then logged at error level; other
// statuses (a wrong URL or token) are not retried. Keys waiting to be sent are capped
// (`maxPendingKeys`). Over the cap the batch is widened rather than cut: first the document keys
// (`d:…`) are left out — a change purges its type key `t:{uid}` with them, and every answer
// holding a document of a type carries that type's key, so the type keys purge a superset —
// then, if still over, only project keys (`p:…`) are kept, and the keys of changes that came
// without one are lost: counted (`cms.cdn.purge_keys{result=dropped}`) and logged at error
// level (their answers stay at the edge until their `s-maxage` ends).
//
// Formats (CDN_PURGE_FORMAT):
// - `json`: `POST {url}` with `{"keys":[…]}`, `Authorization: Bearer {CDN_PURGE_TOKEN}` when set.
// - `fastly`: Fastly's "purge multiple surrogate key tags" API, CDN_PURGE_URL =
//   `https://api.fastly.com/service/{service_id}/purge`: `POST` with `Surrogate-Key: k1 k2 …` and
//   `Fastly-Key: {CDN_PURGE_TOKEN}` (a token with the `purge_select` scope). Hard purges, not soft
//   (`Fastly-Soft-Purge: 1`): a soft purge only marks answers stale, and with the
//   `stale-while-revalidate=300` we send, Fastly would keep serving the pre-change answer to the
//   readers that trigger the refresh — a hard purge makes the next read after a change fetch it.
import type { CdnPurgeConfig } from '@cms/config';
import { instruments, type Logger } from '@cms/telemetry';

export interface CdnPurgerOptions {
  /** How long keys are gathered before a batch is sent (ms, default 30). */
  batchMs?: number;
  fetch?: typeof fetch;
  /** Waits before each retry of a failed request (ms, ±20% jitter; default 500, 2000, 6000: 4 attempts). */
  retryDelaysMs?: readonly number[];
  /** Time allowed for one request (ms, default 5000). */
  timeoutMs?: number;
  /** Distinct keys waiting to be sent before the batch is widened (document keys left out, then all but project keys; default 10,000). */
  maxPendingKeys?: number;
  /** How long `close()` waits for what is pending or in flight (ms, default 5000). */
  closeTimeoutMs?: number;
}

/** Fastly's limit of keys per bulk purge request. */
export const MAX_KEYS_PER_REQUEST = 256;
/** Bytes of space-separated keys per request (the `Surrogate-Key` header of a Fastly purge). */
export const MAX_KEY_BYTES_PER_REQUEST = 8000;
/** A key Fastly accepts: printable ASCII without spaces, at most 1024 bytes. */
const VALID_KEY = /^[\x21-\x7e]{1,1024}$/;

const OK = Object.freeze({ result: 'ok' });
const FAILED = Object.freeze({ result: 'failed' });
const DROPPED = Object.freeze({ result: 'dropped' });

const isProjectKey = (key: string) => key.startsWith('p:');
const isDocumentKey = (key: string) => key.startsWith('d:');

/**
 * How much of the pending keys is kept: 0 all, 1 all but document keys (covered by the type keys
 * of the same change), 2 project keys only.
 */
type Level = 0 | 1 | 2;
const kept = (level: Level, key: string): boolean => level === 0 || (level === 1 ? !isDocumentKey(key) : isProjectKey(key));

/** Keys in requests of at most MAX_KEYS_PER_REQUEST keys and MAX_KEY_BYTES_PER_REQUEST bytes joined. */
export function chunkKeys(keys: readonly string[]): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let bytes = 0;
  for (const key of keys) {
    // Keys are ASCII (length = bytes), joined by one space.
    if (chunk.length && (chunk.length === MAX_KEYS_PER_REQUEST || bytes + 1 + key.length > MAX_KEY_BYTES_PER_REQUEST)) {
      chunks.push(chunk);
      chunk = [];
    }
    bytes = chunk.length ? bytes + 1 + key.length : key.length;
    chunk.push(key);
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}

const errorText = (err: unknown): string => {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 300);
};

/** Seconds of a `Retry-After` header as ms (capped), or null. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, 10_000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - Date.now(), 0), 10_000);
}

export class CdnPurger {
  private readonly batchMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly retryDelaysMs: readonly number[];
  private readonly timeoutMs: number;
  private readonly maxPendingKeys: number;
  private readonly closeTimeoutMs: number;
  private readonly stop = new AbortController();

  private pending = new Set<string>();
  /** Over the cap: what is kept until the next batch. */
  private level: Level = 0;
  /** Keys left out of the current batch by the cap and covered by no key kept (reported when it is sent). */
  private droppedKeys = 0;
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private warnedInvalid = false;

  constructor(
    private readonly config: CdnPurgeConfig | undefined,
    private readonly logger: Logger,
    options: CdnPurgerOptions = {},
  ) {
    this.batchMs = options.batchMs ?? 30;
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.retryDelaysMs = options.retryDelaysMs ?? [500, 2000, 6000];
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxPendingKeys = Math.max(1, options.maxPendingKeys ?? 10_000);
    this.closeTimeoutMs = options.closeTimeoutMs ?? 5000;
    if (config?.format === 'fastly' && !config.token) logger.warn('CDN_PURGE_FORMAT=fastly without CDN_PURGE_TOKEN: Fastly will refuse the purges');
  }

  /** Whether purges are sent at all (CDN_PURGE_URL is set). */
  get enabled(): boolean {
    return this.config !== undefined;
  }

  /** Purge the answers tagged with `keys` (soon, in the background). Never throws. */
  purge(keys: readonly string[]): void {
    if (!this.config || this.closing) return;
    try {
      // Keys of this change left out by the cap: covered when the change also has a key kept
      // that purges more (its project key; for a document key, its type key too).
      let project = false;
      let wider = false;
      let leftOut = 0;
      let documentsLeftOut = 0;
      for (const key of keys) {
        if (typeof key !== 'string' || !VALID_KEY.test(key)) {
          this.invalidKey(key);
          continue;
        }
        if (isProjectKey(key)) project = true;
        else if (!isDocumentKey(key)) wider = true;
        if (!kept(this.level, key)) {
          if (isDocumentKey(key)) documentsLeftOut++;
          else leftOut++;
          continue;
        }
        if (this.level === 2 && this.pending.size >= this.maxPendingKeys && !this.pending.has(key)) {
          this.droppedKeys++; // project keys alone over the cap
          continue;
        }
        this.pending.add(key);
        if (this.pending.size > this.maxPendingKeys) this.collapse();
      }
      if (!project) this.droppedKeys += leftOut + (wider && this.level < 2 ? 0 : documentsLeftOut);
      if (this.pending.size > 0) this.schedule();
    } catch (err) {
      this.logger.error({ err }, 'CDN purge: keys not queued');
    }
  }

  /** Send what is pending (waiting at most closeTimeoutMs for it and for requests in flight), then stop. */
  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (!this.config) return;
    if (this.pending.size > 0 && !this.sending) this.startSending();
    const sending = this.sending;
    if (!sending) return;
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      sending.then(() => false),
      new Promise<boolean>((resolve) => (deadline = setTimeout(() => resolve(true), this.closeTimeoutMs))),
    ]);
    clearTimeout(deadline);
    if (timedOut) {
      // Abort the requests and retry waits still running: each is logged as failed.
      this.stop.abort();
      await sending;
    }
  }

  private invalidKey(key: unknown): void {
    if (this.warnedInvalid) return;
    this.warnedInvalid = true;
    this.logger.warn({ key: String(key).slice(0, 100) }, 'CDN purge: a key that is not printable ASCII without spaces (≤ 1024 bytes) is ignored (logged once)');
  }

  /** Over the cap: leave out document keys, then everything but project keys, until the next batch. */
  private collapse(): void {
    while (this.pending.size > this.maxPendingKeys && this.level < 2) {
      this.level = (this.level + 1) as Level;
      const before = this.pending.size;
      this.pending = new Set([...this.pending].filter((key) => kept(this.level, key)));
      // Type keys left out now may belong to changes without a project key: counted as lost.
      if (this.level === 2) this.droppedKeys += before - this.pending.size;
      this.logger[this.level === 2 ? 'error' : 'warn'](
        { cap: this.maxPendingKeys, kept: this.pending.size },
        this.level === 2
          ? 'CDN purge: too many keys waiting (is the CDN slow or failing?): only project keys are kept until the next batch'
          : 'CDN purge: too many keys waiting: document keys are left out until the next batch (their type keys purge the same answers)',
      );
    }
    if (this.pending.size > this.maxPendingKeys) {
      const projects = [...this.pending];
      this.pending = new Set(projects.slice(0, this.maxPendingKeys));
      this.droppedKeys += projects.length - this.pending.size;
    }
  }

  private schedule(): void {
    if (this.timer || this.sending || this.closing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.sending) this.startSending();
    }, this.batchMs);
    this.timer.unref();
  }

  private startSending(): void {
    this.sending = this.sendAll().finally(() => {
      this.sending = null;
      // Keys that came while the last batch was in flight.
      if (this.pending.size > 0 && !this.closing) this.schedule();
    });
  }

  /** Batch after batch until nothing is pending; one batch's requests run side by side. */
  private async sendAll(): Promise<void> {
    while (this.pending.size > 0) {
      const keys = [...this.pending];
      this.pending = new Set();
      if (this.droppedKeys > 0) {
        instruments.cdnPurgeKeys.add(this.droppedKeys, DROPPED);
        this.logger.error(
          { dropped: this.droppedKeys, sent: keys.length },
          'CDN purge: keys dropped over the cap, covered by no key sent: the answers tagged with them stay at the edge until their s-maxage ends',
        );
      }
      this.droppedKeys = 0;
      this.level = 0;
      await Promise.all(chunkKeys(keys).map((chunk) => this.send(chunk)));
    }
  }

  private request(keys: string[]): RequestInit {
    const config = this.config!;
    if (config.format === 'fastly') {
      const headers: Record<string, string> = { accept: 'application/json', 'surrogate-key': keys.join(' ') };
      if (config.token) headers['fastly-key'] = config.token;
      return { method: 'POST', headers };
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.token) headers.authorization = `Bearer ${config.token}`;
    return { method: 'POST', headers, body: JSON.stringify({ keys }) };
  }

  /** One request with its retries. Never throws. */
  private async send(keys: string[]): Promise<void> {
    const url = this.config!.url;
    const init = this.request(keys);
    for (let attempt = 1; ; attempt++) {
      let failure: string;
      let retryable: boolean;
      let wait: number | null = null;
      try {
        const signal = AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stop.signal]);
        const res = await this.fetchFn(url, { ...init, signal });
        if (res.ok) {
          await res.body?.cancel().catch(() => {});
          instruments.cdnPurges.add(1, OK);
          instruments.cdnPurgeKeys.add(keys.length, OK);
          if (attempt > 1) this.logger.info({ keys: keys.length, attempt }, 'CDN purge sent after retrying');
          return;
        }
        const text = await res.text().catch(() => '');
        failure = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
        retryable = res.status >= 500 || res.status === 429 || res.status === 408;
        wait = retryAfterMs(res.headers.get('retry-after'));
      } catch (err) {
        failure = this.stop.signal.aborted ? 'closed before the CDN answered' : errorText(err);
        retryable = true;
      }
      const delay = this.retryDelaysMs[attempt - 1];
      if (!retryable || delay === undefined || this.stop.signal.aborted) {
        instruments.cdnPurges.add(1, FAILED);
        instruments.cdnPurgeKeys.add(keys.length, FAILED);
        this.logger.error(
          { keys: keys.length, attempts: attempt, error: failure, sample: keys.slice(0, 5) },
          'CDN purge failed: the answers tagged with these keys stay at the edge until their s-maxage ends',
        );
        return;
      }
      this.logger.debug({ keys: keys.length, attempt, error: failure }, 'CDN purge failed, retrying');
      await pause(Math.max(wait ?? 0, delay * (0.8 + Math.random() * 0.4)), this.stop.signal);
    }
  }
}
