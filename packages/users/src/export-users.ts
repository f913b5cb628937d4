// End users in Strapi's data-transfer format (exports): each row of the users table as an entity
// of `plugin::users-permissions.user`, with its password hash, and the type of its role (the
// export links it to the role's entity).
import { isoTimestamp, qualify, rows, type Db } from '@cms/db';
import { USERS_TABLE } from '@cms/tables';

const PAGE = 500;

export interface ExportedUser {
  id: string;
  role: string;
  data: Record<string, unknown>;
}

const SELECT = `SELECT id::text AS id, role, json_build_object('documentId', document_id, 'username', username, 'email', email,
  'provider', provider, 'password', password, 'resetPasswordToken', reset_password_token, 'confirmationToken', confirmation_token,
  'confirmed', confirmed, 'blocked', blocked, 'createdAt', ${isoTimestamp('created_at')}, 'updatedAt', ${isoTimestamp('updated_at')},
  'publishedAt', CASE WHEN published_at IS NULL THEN NULL ELSE ${isoTimestamp('published_at')} END, 'locale', NULL) AS data`;

export async function* exportUsers(db: Db, schema: string): AsyncGenerator<ExportedUser> {
  const text = `${SELECT} FROM ${qualify(schema, USERS_TABLE)} WHERE id > $1 ORDER BY id LIMIT ${PAGE}`;
  for (let after = '0'; ;) {
    const page = await rows<ExportedUser>(db, text, [after]);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.id;
  }
}
