// A project's team: members and their roles, invitations by e-mail, accepting one, leaving.
// Who may call what is decided by the access hook (access.ts) from each route's `config.access`.
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '@cms/errors';
import { teamRoutes as schemas } from '@cms/management-api';
import { INVITATION_LIFETIME_DAYS } from '@cms/tenancy';
import { invitationMail, linkTo } from './account-mail.ts';
import type { ManagementOptions } from './options.ts';
import { projectJson } from './projects.ts';
import { projectOf, requestOrigin } from './request-context.ts';

type MemberRoute = { Params: { slug: string; accountId: string } };

const memberId = (raw: string) => (/^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : NaN);

export async function teamRoutes(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.get('/projects/:slug/members', { schema: schemas.list }, async (request) => platform.members.list(projectOf(request)));

  app.post<{ Body: { email: string; role: string } }>('/projects/:slug/invitations', { config: { access: 'owner' }, schema: schemas.invite }, async (request, reply) => {
    const project = projectOf(request);
    const { invitation, token } = await platform.members.invite(project, request.accountId, request.body);
    const inviter = await platform.accounts.get(request.accountId);
    platform.mailer.post(invitationMail(invitation.email, {
      projectName: project.name,
      inviter: inviter?.name ? `${inviter.name} (${inviter.email})` : (inviter?.email ?? 'A member'),
      role: invitation.role,
      days: INVITATION_LIFETIME_DAYS,
      link: linkTo(requestOrigin(request), 'invitations/accept', token),
    }));
    return reply.status(201).send({ invitation });
  });

  app.delete<{ Params: { slug: string; id: string } }>('/projects/:slug/invitations/:id', { config: { access: 'owner' }, schema: schemas.revokeInvitation }, async (request, reply) => {
    await platform.members.revokeInvitation(projectOf(request), memberId(request.params.id));
    return reply.status(204).send();
  });

  // Any signed-in account: the token proves access to the invited mailbox.
  app.post<{ Body: { token: string } }>('/invitations/accept', { schema: schemas.accept }, async (request) => ({ project: projectJson(request, await platform.members.accept(request.accountId, request.body.token)) }));

  app.patch<MemberRoute & { Body: { role: string } }>('/projects/:slug/members/:accountId', { config: { access: 'owner' }, schema: schemas.changeRole }, async (request) => {
    const id = memberId(request.params.accountId);
    if (Number.isNaN(id)) throw new NotFoundError();
    return { member: await platform.members.changeRole(projectOf(request), id, request.body.role) };
  });

  // An owner removes a member; any member may remove themselves (leave the project).
  app.delete<MemberRoute>('/projects/:slug/members/:accountId', { config: { access: 'owner-or-self' }, schema: schemas.removeMember }, async (request, reply) => {
    const id = memberId(request.params.accountId);
    if (Number.isNaN(id)) throw new NotFoundError();
    await platform.members.remove(projectOf(request), id);
    return reply.status(204).send();
  });
}
