// One project written as a `strapi export --no-encrypt` archive: what `strapi import` of Strapi 5
// and `cms import strapi --data` load (docs/export.md). The caller gives a consistent view of the
// project (`db` inside one REPEATABLE READ transaction) and the archive to write to.
import type { Db } from '@cms/db';
import { contentEntities, contentLinks, type ExportContext, type LinkLine } from '@cms/documents';
import { exportFiles, type MediaLibrary } from '@cms/media';
import type { Model } from '@cms/schema';
import type { PhysicalModel } from '@cms/tables';
import { exportUsers, type UsersSettings } from '@cms/users';
import type { ArchiveWriter, JsonlWriter } from './archive.ts';
import { strapiPermissions, type ExportedRole } from './strapi-permissions.ts';
import { strapiSchemas } from './strapi-schemas.ts';
import { STRAPI_VERSION } from './strapi-builtin-schemas.ts';

const LOCALE_UID = 'plugin::i18n.locale';
const ROLE_UID = 'plugin::users-permissions.role';
const PERMISSION_UID = 'plugin::users-permissions.permission';
const USER_UID = 'plugin::users-permissions.user';
const FILE_UID = 'plugin::upload.file';

export interface ProjectSnapshot {
  projectId: number;
  /** Inside the transaction that gives the export its one point in time. */
  db: Db;
  schema: string;
  model: Model;
  physical: PhysicalModel;
  defaultLocale: string;
  locales: ReadonlyArray<{ code: string; name: string; createdAt: string }>;
  roles: readonly ExportedRole[];
  usersSettings: UsersSettings;
  media: MediaLibrary;
}

/** What an archive holds (the export's record keeps it; `cms export` prints it). */
export interface ArchiveCounts {
  entities: Record<string, number>;
  links: number;
  assets: number;
  /** Stored objects a file row names but storage does not hold (left out of `assets/`). */
  missingAssets: number;
}

export type ExportStage = 'schemas' | 'entities' | 'assets' | 'links' | 'configuration';

/** Writes the whole archive (then `archive.finish()` is the caller's). */
export async function writeProjectArchive(
  snapshot: ProjectSnapshot, archive: ArchiveWriter, onStage: (stage: ExportStage) => void = () => {},
): Promise<ArchiveCounts> {
  const counts: ArchiveCounts = { entities: {}, links: 0, assets: 0, missingAssets: 0 };
  const ctx: ExportContext = { db: snapshot.db, schema: snapshot.schema, model: snapshot.model, physical: snapshot.physical };
  await archive.json('metadata.json', { createdAt: new Date().toISOString(), strapi: { version: STRAPI_VERSION } });

  onStage('schemas');
  const schemas = archive.jsonl('schemas');
  for (const schema of strapiSchemas(snapshot.model)) await schemas.write(schema);
  await schemas.close();

  onStage('entities');
  const entities = archive.jsonl('entities');
  const entity = async (type: string, id: string | number, data: unknown) => {
    counts.entities[type] = (counts.entities[type] ?? 0) + 1;
    // `data` may be JSON text built by Postgres: written into the line as it is.
    await entities.write(`{"type":${JSON.stringify(type)},"id":${Number(id)},"data":${typeof data === 'string' ? data : JSON.stringify(data)}}`);
  };
  let localeId = 0;
  for (const locale of snapshot.locales) {
    await entity(LOCALE_UID, ++localeId, {
      documentId: `locale${localeId}`, name: locale.name, code: locale.code,
      createdAt: locale.createdAt, updatedAt: locale.createdAt, publishedAt: locale.createdAt, locale: null,
    });
  }
  for await (const file of exportFiles(snapshot.db, snapshot.schema)) await entity(FILE_UID, file.id, file.data);
  for (const role of snapshot.roles) {
    await entity(ROLE_UID, role.id, {
      documentId: `role${role.id}`, name: role.name, description: role.description, type: role.type,
      createdAt: role.createdAt, updatedAt: role.updatedAt, publishedAt: role.updatedAt, locale: null,
    });
  }
  const permissions = strapiPermissions(snapshot.roles);
  for (const p of permissions) {
    await entity(PERMISSION_UID, p.id, {
      documentId: `permission${p.id}`, action: p.action, createdAt: p.at, updatedAt: p.at, publishedAt: p.at, locale: null,
    });
  }
  const roleIds = new Map(snapshot.roles.map((r) => [r.type, r.id]));
  const userRoles: Array<[string, number]> = [];
  for await (const user of exportUsers(snapshot.db, snapshot.schema)) {
    await entity(USER_UID, user.id, user.data);
    const role = roleIds.get(user.role);
    if (role !== undefined) userRoles.push([user.id, role]);
  }
  for (const uid of Object.keys(snapshot.model.contentTypes)) {
    for await (const row of contentEntities(ctx, uid)) await entity(row.type, row.id, row.data);
  }
  await entities.close();

  onStage('assets');
  for await (const file of exportFiles(snapshot.db, snapshot.schema)) {
    for (const asset of file.assets) {
      const stored = await snapshot.media.read(snapshot.projectId, asset.fileName);
      if (!stored) {
        counts.missingAssets++;
        continue;
      }
      await archive.json(`assets/metadata/${asset.fileName}.json`, asset.metadata);
      await archive.entry(`assets/uploads/${asset.fileName}`, stored.size, stored.body);
      counts.assets++;
    }
  }

  onStage('links');
  const links = archive.jsonl('links');
  const link = async (line: LinkLine) => {
    counts.links++;
    await links.write(line);
  };
  for (const p of permissions) {
    await link({ kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION_UID, field: 'role', ref: p.id }, right: { type: ROLE_UID, field: 'permissions', ref: p.roleId, pos: p.pos } });
  }
  const usersPerRole = new Map<number, number>();
  for (const [user, role] of userRoles) {
    const pos = (usersPerRole.get(role) ?? 0) + 1;
    usersPerRole.set(role, pos);
    await link({ kind: 'relation.basic', relation: 'manyToOne', left: { type: USER_UID, field: 'role', ref: Number(user) }, right: { type: ROLE_UID, field: 'users', ref: role, pos } });
  }
  for await (const line of contentLinks(ctx)) await link(line);
  await links.close();

  onStage('configuration');
  const configuration = archive.jsonl('configuration');
  await writeConfiguration(configuration, snapshot);
  await configuration.close();
  return counts;
}

/** The core-store entries a Strapi app reads the project's settings from. */
async function writeConfiguration(out: JsonlWriter, snapshot: ProjectSnapshot): Promise<void> {
  const settings = snapshot.usersSettings;
  const entries: Array<[string, unknown, string]> = [
    ['plugin_i18n_default_locale', snapshot.defaultLocale, 'string'],
    ['plugin_users-permissions_advanced', {
      unique_email: true,
      allow_register: settings.allowRegister,
      email_confirmation: settings.emailConfirmation,
      email_reset_password: settings.resetPasswordUrl,
      email_confirmation_redirection: settings.emailConfirmationRedirect,
      default_role: settings.defaultRole,
    }, 'object'],
  ];
  let id = 0;
  for (const [key, value, type] of entries) {
    await out.write({ type: 'core-store', value: { id: ++id, key, value, type, environment: null, tag: null } });
  }
}
