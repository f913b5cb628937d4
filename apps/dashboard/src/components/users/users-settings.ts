// The management API's side of end users: the users-permissions settings, the e-mail templates,
// how the platform delivers e-mail, and the project's end-user roles (queries under ['project', slug]).
import { useQuery } from '@tanstack/react-query';
import { api, type RoleInfo } from '../../api.ts';
import { projectKey } from '../../project.ts';

export interface UsersSettings {
  allowRegister: boolean;
  emailConfirmation: boolean;
  defaultRole: string;
  jwtExpiresIn: number;
  resetPasswordUrl: string | null;
  emailConfirmationRedirect: string;
}

export type TemplateName = 'emailConfirmation' | 'resetPassword';

export interface EmailTemplate {
  fromName: string | null;
  replyTo: string | null;
  subject: string;
  message: string;
}

export interface EmailTemplatesAnswer {
  emailTemplates: Record<TemplateName, EmailTemplate>;
  variables: Record<TemplateName, { subject: string[]; message: string[] }>;
}

export interface MailTransport {
  transport: 'smtp' | 'log';
  from: string;
  host: string | null;
}

export const usersSettingsPath = (slug: string) => `/v1/projects/${slug}/settings/users-permissions`;
export const emailTemplatesPath = (slug: string) => `/v1/projects/${slug}/settings/email-templates`;

export function useUsersSettings(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'settings', 'users-permissions'),
    queryFn: async () => (await api<{ usersPermissions: UsersSettings }>('GET', usersSettingsPath(slug))).usersPermissions,
  });
}

export function useEmailTemplates(slug: string) {
  return useQuery({ queryKey: projectKey(slug, 'settings', 'email-templates'), queryFn: () => api<EmailTemplatesAnswer>('GET', emailTemplatesPath(slug)) });
}

export function useMailTransport(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'settings', 'email'),
    queryFn: async () => (await api<{ email: MailTransport }>('GET', `/v1/projects/${slug}/settings/email`)).email,
  });
}

/** The roles an end user may have (every role but public), as the Roles page loads them. */
export function useUserRoles(slug: string) {
  const roles = useQuery({ queryKey: projectKey(slug, 'roles'), queryFn: async () => (await api<{ roles: RoleInfo[] }>('GET', `/v1/projects/${slug}/roles`)).roles });
  return { ...roles, options: (roles.data ?? []).filter((r) => r.type !== 'public').map((r) => ({ value: r.type, label: r.name })) };
}
