// What every release operation needs to know about the project it runs in.
import type { Db } from '@cms/db';
import type { TransactionalDb } from '@cms/documents';
import type { PhysicalModel } from '@cms/tables';
import type { Model } from '@cms/schema';

export interface ReleaseProject {
  /** The project's id: its schedules' rows in the due index (`platform.content_schedules`) name it. */
  projectId: number;
  /** The project's pool (on its cluster): statements and transactions. */
  pool: Db & TransactionalDb;
  /** Postgres schema of the project (its releases live there, beside its content). */
  schema: string;
  model: Model;
  physical: PhysicalModel;
  defaultLocale: string;
}
