// The live streams of one gateway (docs/live.md) and the fan-out that feeds them. A write records
// its document events in its own transaction (@cms/live), positioned there when the statement
// recording them commits it (a document write's own transaction); otherwise, after it commits and
// before it is answered, the gateway that made it gives them their positions (`sequenceNow`: a
// stream opened after the answer never receives them). Either way it publishes them on the bus
// (`live` channel) before the answer; every
// gateway — this one included — hands them to the streams it holds for that project, in position
// order. A stream that sees a gap (two gateways' messages crossed) reads the missing events from
// the log first; a process killed after its commit leaves events without a position, which the
// sweep of any gateway holding a stream of the project sequences within a second or two.
import { detached, type Db } from '@cms/db';
import { hasUnsequencedEvents, liveEventsAfter, sequenceLiveEvents, type LiveEvent } from '@cms/live';
import type { Bus } from '@cms/tenancy';
import { getMeter, telemetryState, type Logger } from '@cms/telemetry';
import type { StreamCounts } from './stream-counts.ts';

export const LIVE_CHANNEL = 'live';
const SWEEP_MS = 1_000;
const PING_MS = 15_000;
/** Events read from the log to fill one gap or one resume, at most. */
export const BACKLOG_LIMIT = 10_000;

/** Where a project's log lives. */
export interface LiveProject {
  id: number;
  cluster: string;
  schemaName: string;
}

/** One open stream as the hub sees it (live-stream.ts). */
export interface LiveSubscriber {
  readonly project: LiveProject;
  /** The last position this subscriber was given (or started after). */
  position: number;
  /** Events in position order (those at or before `position` are skipped); `memo` shares rendered entries. */
  deliver(events: readonly LiveEvent[], memo?: Map<string, Promise<string | null>>): Promise<void>;
  /** The log no longer holds what this subscriber missed: it goes on from the log's head. */
  restart(head: number): void;
  ping(): void;
  /** Close it (shutdown). */
  end(): void;
}

interface ProjectStreams {
  project: LiveProject;
  subscribers: Set<LiveSubscriber>;
  /** Deliveries of this project run one after the other (position order per stream). */
  queue: Promise<void>;
}

export class LiveHub {
  private readonly projects = new Map<number, ProjectStreams>();
  private readonly sequencing = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  /** Counted for `/metrics` (observed at each collection). */
  readonly stats = { sequenced: 0, dropped: 0 };
  private sweepTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly bus: Bus, private readonly poolOf: (cluster: string) => Db & { transaction: Db['transaction'] }, private readonly logger: Logger,
    /** Streams per project on every gateway (the plan's limit). */
    readonly counts: StreamCounts,
  ) {}

  async start(): Promise<void> {
    observeLive(this);
    await this.bus.subscribe(LIVE_CHANNEL, (message) => {
      const parsed = JSON.parse(message) as { projectId: number; events?: LiveEvent[]; restart?: number };
      if (parsed.restart !== undefined) this.restartLocal(parsed.projectId, parsed.restart);
      else this.enqueue(parsed.projectId, parsed.events ?? []);
    });
    this.sweepTimer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweepTimer.unref();
    // One timer for every stream's keep-alive comment.
    this.pingTimer = setInterval(() => {
      for (const p of this.projects.values()) for (const subscriber of p.subscribers) subscriber.ping();
    }, PING_MS);
    this.pingTimer.unref();
  }

  /** Streams held now (metrics). */
  get size(): number {
    let n = 0;
    for (const p of this.projects.values()) n += p.subscribers.size;
    return n;
  }

  /** Streams of one project held by this gateway. */
  countOf(projectId: number): number {
    return this.projects.get(projectId)?.subscribers.size ?? 0;
  }

  /**
   * Start feeding a subscriber: first what the log holds after its position (its resume, or what
   * was written while it connected), then what is published — in the project's delivery queue, so
   * nothing is given twice or out of order.
   */
  add(subscriber: LiveSubscriber): void {
    let entry = this.projects.get(subscriber.project.id);
    if (!entry) this.projects.set(subscriber.project.id, (entry = { project: subscriber.project, subscribers: new Set(), queue: Promise.resolve() }));
    entry.subscribers.add(subscriber);
    const projectId = subscriber.project.id;
    this.counts.report(projectId, entry.subscribers.size);
    entry.queue = entry.queue.then(() => this.catchUp(subscriber)).catch((err) => this.logger.warn({ err, projectId }, 'live catch-up failed'));
  }

  /** A subscriber read too slowly and was disconnected. */
  dropped(subscriber: LiveSubscriber): void {
    this.stats.dropped++;
    this.remove(subscriber);
  }

  remove(subscriber: LiveSubscriber): void {
    const entry = this.projects.get(subscriber.project.id);
    if (!entry) return;
    if (!entry.subscribers.delete(subscriber)) return;
    this.counts.report(subscriber.project.id, entry.subscribers.size);
    if (entry.subscribers.size === 0) this.projects.delete(subscriber.project.id);
  }

  /**
   * A write of the project committed document events: position them and publish them, after the
   * write's answer (coalesced: one run at a time per project, one more if asked meanwhile).
   */
  sequenceSoon(project: LiveProject): void {
    if (this.closed) return;
    if (this.sequencing.has(project.id)) {
      this.again.add(project.id);
      return;
    }
    const run = detached(async () => {
      try {
        do {
          this.again.delete(project.id);
          await this.sequence(project);
        } while (this.again.has(project.id) && !this.closed);
      } catch (err) {
        this.logger.warn({ err, projectId: project.id }, 'live events could not be sequenced now; the sweep tries again');
      } finally {
        this.sequencing.delete(project.id);
      }
    });
    this.sequencing.set(project.id, run);
  }

  /**
   * A request's writes committed: publish the live events they positioned themselves, and position
   * (then publish) those they left to the sequencer — before the request is answered.
   */
  async afterWrites(project: LiveProject, positioned: readonly LiveEvent[], unsequenced: boolean): Promise<void> {
    await Promise.all([positioned.length > 0 ? this.publish(project, positioned) : undefined, unsequenced ? this.sequenceNow(project) : undefined]);
  }

  /** Events positioned by their write: on the bus. A failure leaves them to the log (a stream reads them at its next gap or resume). */
  private async publish(project: LiveProject, events: readonly LiveEvent[]): Promise<void> {
    if (this.closed) return;
    try {
      await this.broadcast(project, events);
    } catch (err) {
      this.logger.warn({ err, projectId: project.id }, 'live events could not be published; streams read them from the log');
    }
  }

  /** Positioned events to every gateway's streams of the project (counted for `/metrics`). */
  private async broadcast(project: LiveProject, events: readonly LiveEvent[]): Promise<void> {
    this.stats.sequenced += events.length;
    await this.bus.publish(LIVE_CHANNEL, JSON.stringify({ projectId: project.id, events }));
  }

  /**
   * A write of the project committed document events: position them before the write is answered
   * (a stream opened after the answer starts after them), then publish them. A failure leaves
   * them to the background run and the sweep: late, never lost.
   */
  private async sequenceNow(project: LiveProject): Promise<void> {
    if (this.closed) return;
    try {
      await detached(() => this.sequence(project, false));
    } catch (err) {
      this.logger.warn({ err, projectId: project.id }, 'live events could not be sequenced with their write; trying again in the background');
      this.sequenceSoon(project);
    }
  }

  private async sequence(project: LiveProject, probe = true): Promise<void> {
    const pool = this.poolOf(project.cluster);
    for (;;) {
      const events = await sequenceLiveEvents(pool, project.schemaName, { probe });
      if (events.length === 0) return;
      await this.broadcast(project, events);
      if (events.length < 1_000) return;
    }
  }

  /**
   * The project's log was replaced (a restore in place): every stream of it, on every gateway, is
   * told to start again and goes on from `head`.
   */
  async restartAll(projectId: number, head: number): Promise<void> {
    await this.bus.publish(LIVE_CHANNEL, JSON.stringify({ projectId, restart: head }));
  }

  private restartLocal(projectId: number, head: number): void {
    const entry = this.projects.get(projectId);
    if (!entry) return;
    entry.queue = entry.queue.then(() => {
      for (const subscriber of entry.subscribers) subscriber.restart(head);
    });
  }

  /** Projects streamed here whose log holds events without a position (a writer died after its commit). */
  private async sweep(): Promise<void> {
    for (const { project } of [...this.projects.values()]) {
      if (this.closed || this.sequencing.has(project.id)) continue;
      try {
        if (await hasUnsequencedEvents(this.poolOf(project.cluster), project.schemaName)) this.sequenceSoon(project);
      } catch {
        /* the project went (deleted, moved): its streams end with it */
      }
    }
  }

  private enqueue(projectId: number, events: LiveEvent[]): void {
    const entry = this.projects.get(projectId);
    if (!entry || events.length === 0) return;
    entry.queue = entry.queue.then(() => this.deliver(entry, events)).catch((err) => this.logger.warn({ err, projectId }, 'live delivery failed'));
  }

  private async deliver(entry: ProjectStreams, events: LiveEvent[]): Promise<void> {
    const first = events[0]!.position;
    const memo = new Map<string, Promise<string | null>>();
    for (const subscriber of [...entry.subscribers]) {
      if (subscriber.position >= events[events.length - 1]!.position) continue;
      // A gap: the events in between were published by another gateway, after these.
      if (subscriber.position < first - 1) await this.catchUp(subscriber);
      else await subscriber.deliver(events, memo);
    }
  }

  /** Deliver from the log what comes after the subscriber's position (a gap, or its resume). */
  private async catchUp(subscriber: LiveSubscriber): Promise<void> {
    const { project } = subscriber;
    for (;;) {
      const found = await liveEventsAfter(this.poolOf(project.cluster), project.schemaName, subscriber.position, BACKLOG_LIMIT);
      if (!found.continuous) return subscriber.restart(found.head);
      if (found.events.length === 0) return;
      await subscriber.deliver(found.events);
      if (found.events.length < BACKLOG_LIMIT) return;
    }
  }

  /** Stop: sequencing ends, every stream is closed (its client reconnects to another gateway and resumes). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    for (const p of this.projects.values()) for (const subscriber of p.subscribers) subscriber.end();
    this.projects.clear();
    await Promise.allSettled([...this.sequencing.values()]);
    await this.counts.close();
  }
}

/** `cms.live.streams` (held now), `cms.live.events` (positioned by this gateway), `cms.live.dropped` (slow consumers disconnected). */
function observeLive(hub: LiveHub): void {
  if (!telemetryState.metrics) return;
  const meter = getMeter();
  const streams = meter.createObservableGauge('cms.live.streams', { description: 'Live streams (SSE and GraphQL subscriptions) held by this gateway.' });
  const events = meter.createObservableCounter('cms.live.events', { description: 'Live events positioned and published by this gateway.' });
  const dropped = meter.createObservableCounter('cms.live.dropped', { description: 'Live streams disconnected for reading too slowly.' });
  meter.addBatchObservableCallback((result) => {
    result.observe(streams, hub.size);
    result.observe(events, hub.stats.sequenced);
    result.observe(dropped, hub.stats.dropped);
  }, [streams, events, dropped]);
}
