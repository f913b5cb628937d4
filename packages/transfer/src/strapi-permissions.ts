// The project's end-user roles' permissions as Strapi's users-permissions stores them: one
// `plugin::users-permissions.permission` per action name (`api::article.article.find`), linked to
// its role. A Strapi importing the archive replaces its own permissions with these, so each role
// also gets the auth actions a new Strapi app grants it (login, register… for public; me,
// logout… for authenticated), or its users could no longer log in there.
export interface ExportedRole {
  id: number;
  type: string;
  name: string;
  description: string;
  /** `{uid: [action]}` as the management API stores them. */
  permissions: Record<string, string[]>;
  createdAt: string;
  updatedAt: string;
}

export interface StrapiPermission {
  id: number;
  action: string;
  roleId: number;
  /** Position among its role's permissions. */
  pos: number;
  at: string;
}

const UP = 'plugin::users-permissions';

/** What Strapi 5.54 grants its two built-in roles when it creates them. */
const STRAPI_DEFAULTS: Record<string, readonly string[]> = {
  authenticated: [`${UP}.auth.logout`, `${UP}.auth.getSessions`, `${UP}.auth.revokeSession`, `${UP}.user.me`, `${UP}.auth.changePassword`],
  public: [
    `${UP}.auth.callback`, `${UP}.auth.connect`, `${UP}.auth.forgotPassword`, `${UP}.auth.resetPassword`, `${UP}.auth.register`,
    `${UP}.auth.emailConfirmation`, `${UP}.auth.sendEmailConfirmation`, `${UP}.auth.refresh`,
  ],
};

/** Strapi's action name of one of ours. */
function actionName(uid: string, action: string): string {
  if (uid === 'plugin::upload') return `plugin::upload.content-api.${action}`;
  if (uid === UP) return `${UP}.user.${action}`;
  return `${uid}.${action}`;
}

export function strapiPermissions(roles: readonly ExportedRole[]): StrapiPermission[] {
  const out: StrapiPermission[] = [];
  for (const role of roles) {
    const actions = new Set(STRAPI_DEFAULTS[role.type] ?? []);
    for (const [uid, list] of Object.entries(role.permissions)) for (const action of list) actions.add(actionName(uid, action));
    let pos = 0;
    for (const action of actions) out.push({ id: out.length + 1, action, roleId: role.id, pos: ++pos, at: role.updatedAt });
  }
  return out;
}
