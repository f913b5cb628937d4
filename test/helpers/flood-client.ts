// A flood of one URL from its own process (forked with IPC), so that a test timing other requests
// does not share its event loop with the flood's clients: `clients` independent clients, their
// starts spread over `spreadMs`, each sending its next request once it has an answer. The parent
// sends 'stop'; the child answers with the statuses it got and every answer outside `allowed`
// (status → exact body expected, and the Retry-After it must carry when given).
export interface FloodOptions {
  url: string;
  clients: number;
  spreadMs: number;
  allowed: Record<number, { body?: unknown; retryAfter?: string } | true>;
}

export interface FloodReport {
  statuses: Record<number, number>;
  failures: string[];
}

if (process.send) {
  process.once('message', (options: FloodOptions) => {
    let stop = false;
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const client = async (delayMs: number) => {
      await new Promise((r) => setTimeout(r, delayMs));
      while (!stop) {
        try {
          const res = await fetch(options.url);
          const text = await res.text();
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const rule = options.allowed[res.status];
          if (rule === undefined) failures.push(`${res.status} ${text.slice(0, 300)}`);
          else if (rule !== true) {
            if (rule.body !== undefined && JSON.stringify(JSON.parse(text)) !== JSON.stringify(rule.body)) failures.push(`${res.status} body ${text.slice(0, 300)}`);
            if (rule.retryAfter !== undefined && res.headers.get('retry-after') !== rule.retryAfter) failures.push(`${res.status} retry-after ${res.headers.get('retry-after')}`);
          }
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const running = Array.from({ length: options.clients }, (_, i) => client((i * options.spreadMs) / options.clients));
    process.once('message', () => {
      stop = true;
      void Promise.all(running).then(() => process.send!({ statuses, failures } satisfies FloodReport, () => process.exit(0)));
    });
    process.send!('started');
  });
}
