// One client's live stream (`GET /api/live`, docs/live.md): Server-Sent Events written straight to
// the socket. It is given the project's events in position order by the hub (live-hub.ts), keeps
// those its filters and its credential let through, and writes each with its `entry` as the
// credential reads it (rendered once per credential class and event for every stream of a
// delivery). A client that reads slower than the project writes is dropped, not buffered without
// bound: it reconnects with Last-Event-ID and loses nothing.
import type { ServerResponse } from 'node:http';
import type { LiveEvent } from '@cms/live';
import type { LiveProject, LiveSubscriber } from './live-hub.ts';

/** Bytes a stream may have waiting in its socket before it is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export interface StreamFilter {
  /** May this stream see the event at all (its types, locale and status; the credential's `find`)? */
  accepts(event: LiveEvent): boolean;
  /** Key under which streams share an event's rendered entry (credential class and status read). */
  readonly renderKey: string;
  /** The entry as this stream's credential reads it (JSON text), or null (deleted, unpublished, gone). */
  render(event: LiveEvent): Promise<string | null>;
  /** The content type's singularName. */
  modelOf(uid: string): string;
}

/** Entries rendered during one delivery, shared by the streams of one credential class. */
export type RenderMemo = Map<string, Promise<string | null>>;

const ENTRY_EVENTS = new Set(['entry.create', 'entry.update', 'entry.publish']);

export class SseStream implements LiveSubscriber {
  private closed = false;

  constructor(
    readonly project: LiveProject,
    public position: number,
    private readonly res: ServerResponse,
    private readonly filter: StreamFilter,
    private readonly onDrop: (stream: SseStream) => void,
  ) {}

  /** The response's head and the client's reconnection delay. */
  open(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies (nginx) must pass events on as they come.
      'x-accel-buffering': 'no',
    });
    this.write('retry: 2000\n\n');
  }

  async deliver(events: readonly LiveEvent[], memo: RenderMemo = new Map()): Promise<void> {
    for (const event of events) {
      if (this.closed) return;
      if (event.position <= this.position) continue;
      this.position = event.position;
      if (!this.filter.accepts(event)) continue;
      let entry: string | null = null;
      if (ENTRY_EVENTS.has(event.event)) {
        const key = `${this.filter.renderKey}\n${event.position}`;
        let rendered = memo.get(key);
        if (!rendered) memo.set(key, (rendered = this.filter.render(event)));
        entry = await rendered;
        if (this.closed) return;
      }
      const data = `{"event":"${event.event}","uid":${JSON.stringify(event.uid)},"model":${JSON.stringify(this.filter.modelOf(event.uid))},` +
        `"documentId":${JSON.stringify(event.documentId)},"locale":${JSON.stringify(event.locale)}${entry === null ? '' : `,"entry":${entry}`}}`;
      this.write(`id: ${event.position}\nevent: ${event.event}\ndata: ${data}\n\n`);
    }
  }

  /** The client's position is older than the log keeps: it must load again; the stream goes on from the log's head. */
  restart(head: number): void {
    this.position = head;
    this.write(`id: ${head}\nevent: restart\ndata: {"position":${head}}\n\n`);
  }

  ping(): void {
    this.write(': ping\n\n');
  }

  /** End the stream (shutdown: the client reconnects elsewhere and resumes). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }

  /** The client went away. */
  gone(): void {
    this.closed = true;
  }

  private write(text: string): void {
    if (this.closed) return;
    this.res.write(text);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      // A slow consumer: dropped, so it costs the others nothing; its Last-Event-ID resumes it.
      this.closed = true;
      this.res.destroy();
      this.onDrop(this);
    }
  }
}
