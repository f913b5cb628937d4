// What the scheduler (scheduler.ts) needs of the platform to run a project's schedules: the
// project as it is now — its cluster's pool, schema, model, webhook hooks, whether content history
// is recorded — and, after a run, the change recorded for the answer caches and the CDN, and the
// e-mail to the author of one that failed.
import type { ProjectLookup, ScheduleRun } from '@cms/releases';
import type { Platform } from './platform.ts';
import type { ScheduleHooks } from './scheduler.ts';
import { failedActionMail, failedReleaseMail } from './schedule-mail.ts';
import { documentEvents, releaseEvents } from './webhook-events.ts';
import { SYSTEM_AUDIT } from './audit/audit-context.ts';

export function scheduleHooks(platform: Platform): ScheduleHooks {
  return {
    async lookup(projectId): Promise<ProjectLookup> {
      const found = await platform.projects.slugOf(projectId);
      if (!found) return { state: 'gone' };
      const tenant = found.deleted ? null : await platform.registry.resolve(found.slug);
      // Deleted (restorable for a while) or deleted meanwhile: looked at again later.
      if (!tenant) return { state: 'paused' };
      const project = tenant.project;
      const runtime = await platform.runtimes.get(project);
      return {
        state: 'live',
        project: {
          projectId, cluster: project.cluster, pool: platform.db.poolOf(project.cluster),
          schema: runtime.schemaName, model: runtime.model, physical: runtime.physical, defaultLocale: project.defaultLocale,
          emit: documentEvents(platform, project, runtime, SYSTEM_AUDIT), emitRelease: releaseEvents(platform, project), history: platform.config.contentHistory,
        },
      };
    },

    async notify(run: ScheduleRun, projectId: number) {
      // Published: the project's answers changed (the run committed before it is told).
      if (run.outcome === 'published' || run.outcome === 'succeeded') {
        await platform.delivery.changed(projectId);
        const found = await platform.projects.slugOf(projectId);
        const tenant = found && !found.deleted ? await platform.registry.resolve(found.slug) : null;
        if (tenant) platform.live.sequenceSoon(tenant.project);
      }
      if (run.outcome !== 'failed' || run.createdBy === null) return;
      const account = await platform.accounts.get(run.createdBy);
      const project = await platform.projects.slugOf(projectId);
      if (!account || !project) return;
      const tenant = await platform.registry.resolve(project.slug);
      const ref = { name: tenant?.project.name ?? project.slug, slug: project.slug };
      await platform.mailer.send(run.kind === 'release'
        ? failedReleaseMail(account.email, ref, run.release, run.error.message)
        : failedActionMail(account.email, ref, run.action));
    },
  };
}
