// The project's live stream (`/p/{slug}/api/live`, docs/live.md) as the dashboard follows it: with
// the member's content access key (EventSource cannot send one, so fetch reads the stream), resuming
// after a drop with the last event id, until the page that opened it goes away (the content
// manager's list: features/content/api/get-documents.ts).
import { contentAccess, forgetContentAccess, projectPath } from './content-api.ts';

export interface LiveChange {
  event: string;
  uid: string;
  documentId: string;
  locale: string | null;
}

const RETRY_MS = 2_000;

/** Follow `uids`' changes (drafts included) until `signal` aborts; `onChange` for each event (and `restart`). */
export async function followLive(slug: string, uids: readonly string[], onChange: (change: LiveChange | null) => void, signal: AbortSignal): Promise<void> {
  let lastEventId: string | null = null;
  while (!signal.aborted) {
    try {
      const key = await contentAccess(slug);
      const query = `?types=${encodeURIComponent(uids.join(','))}&status=draft`;
      const res = await fetch(projectPath(slug, `/api/live${query}`), {
        signal,
        headers: { accept: 'text/event-stream', authorization: `Bearer ${key.accessKey}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      });
      if (res.status === 401) forgetContentAccess(slug);
      if (!res.ok || !res.body) throw new Error(`live stream: ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
          const id = field('id');
          if (id) lastEventId = id;
          const data = field('data');
          if (field('event') === 'restart') onChange(null);
          else if (data) onChange(JSON.parse(data) as LiveChange);
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
