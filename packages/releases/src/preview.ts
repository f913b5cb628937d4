// Release previews (content API `?release={id}`, GraphQL `release:`; docs/preview.md): the reads
// themselves are @cms/query's (its release overlay); this only tells whether the project has the
// release, pending or done, so an unknown one answers 404 rather than the published content.
import { exists, qualify, type Db } from '@cms/db';

/** `id`: decimal digits (@cms/query `releaseIdOf`). Another project's ids name nothing in this schema. */
export function releaseExists(db: Db, schema: string, id: string): Promise<boolean> {
  return exists(db, `SELECT 1 FROM ${qualify(schema, 'releases')} WHERE "id" = $1::bigint`, [id]);
}
