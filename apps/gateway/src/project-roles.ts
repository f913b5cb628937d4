// Changes to a project's end-user roles, for the management API and the content API's role
// mutations alike: each one is written, then every instance drops its cached tenant entry.
import type { StoredRole } from '@cms/auth';
import type { ProjectRecord } from '@cms/tenancy';
import { usersSettingsOf } from '@cms/users';
import type { Platform } from './platform.ts';

export interface ProjectRoleChanges {
  create(input: { type: string; name: string; description?: string }): Promise<StoredRole>;
  updateInfo(type: string, input: { name?: string; description?: string }): Promise<StoredRole>;
  setPermissions(type: string, permissions: unknown): Promise<StoredRole>;
  /** A custom role: its users become `authenticated`, and so does a default role naming it. */
  remove(type: string): Promise<void>;
}

export function projectRoleChanges(platform: Platform, project: ProjectRecord): ProjectRoleChanges {
  // Roles are part of the tenant entry every instance caches.
  const invalidate = () => platform.registry.invalidate({ projectId: project.id, slug: project.slug, scope: 'project' });
  const changed = async <T>(change: Promise<T>): Promise<T> => {
    const result = await change;
    await invalidate();
    return result;
  };
  return {
    create: (input) => changed(platform.roles.create(project.id, input)),
    updateInfo: (type, input) => changed(platform.roles.updateInfo(project.id, type, input)),
    setPermissions: async (type, permissions) => {
      const { model } = await platform.runtimes.get(project);
      return changed(platform.roles.setPermissions(project.id, type, permissions, model));
    },
    remove: async (type) => {
      // Its users become `authenticated` in the same transaction.
      await platform.roles.remove(project.id, type, (tx) => platform.endUsers.roleRemoved(tx, project.schemaName, type));
      const settings = usersSettingsOf(project.settings);
      if (settings.defaultRole === type) await platform.projects.updateSettings(project, 'usersPermissions', { ...settings, defaultRole: 'authenticated' });
      await invalidate();
    },
  };
}
