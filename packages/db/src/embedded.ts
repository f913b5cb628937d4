// Embedded Postgres for a newcomer's first run: PGlite served over the wire protocol so the same
// pg/slonik code paths work. Queries run one at a time; fine for trying the product, not for load.
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const host = '127.0.0.1';
  const port = await freePort(host);
  const server = new PGLiteSocketServer({ db, port, host, maxConnections: 16 });
  await server.start();
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
