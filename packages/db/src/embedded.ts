// Embedded Postgres for a newcomer's first run: PGlite served over the wire protocol so the same
// pg/slonik code paths work. One session, lent to one connection at a time (embedded-wire.ts):
// fine for trying the product, not for load.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedWireServer } from './embedded-wire.ts';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const dir = join(dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  const db = await PGlite.create(dir);
  const host = '127.0.0.1';
  const server = new EmbeddedWireServer(db, 16);
  const port = await server.listen(0, host);
  return {
    url: `postgres://postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
