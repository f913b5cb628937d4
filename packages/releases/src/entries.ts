// An action's entry as the content API returns it: the draft, no populate, every attribute the
// public shape has (private ones left out), read with the same compiled read as `GET /api/...`.
import type { Db } from '@cms/db';
import { planQuery, runFindOne } from '@cms/query';
import type { ReleaseProject } from './context.ts';
import type { ActionRow } from './release-rows.ts';

const LIMITS = { defaultLimit: 1, maxLimit: 1 };

export async function entryOf(db: Db, project: ReleaseProject, action: ActionRow): Promise<Record<string, unknown> | null> {
  if (!project.model.contentTypes[action.contentType]) return null;
  const plan = planQuery({ sort: [] }, {
    model: project.model, physical: project.physical, uid: action.contentType, schema: project.schema,
    locale: action.locale ?? project.defaultLocale, status: 'draft', canFind: () => false, ...LIMITS,
  });
  const json = await runFindOne(db, plan, action.entryDocumentId);
  return json === null ? null : (JSON.parse(json) as Record<string, unknown>);
}
