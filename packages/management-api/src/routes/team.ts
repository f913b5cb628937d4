// A project's team (apps/gateway/src/management/team.ts): members and their roles, invitations by
// e-mail, accepting one, leaving.
import { NO_PROJECT, withErrors } from '../errors.ts';
import { defineRoute, noContent, positiveId, shownBody } from '../route.ts';
import { answerWith, projectRole } from '../shapes.ts';

// Fastify checks the body's shape; the handler checks the role, in its words (`role must be one of
// the following values: …`): the document alone shows the enum (`shownBody`).
const role = { type: 'string', maxLength: 50, description: '`owner`, `editor` or `viewer`' } as const;
const shownRole = (description: string) => ({ role: { ...projectRole, description } }) as const;

const InviteBody = {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'role'],
  properties: { email: { type: 'string', maxLength: 254 }, role },
  examples: [{ email: 'colleague@example.com', role: 'editor' }],
} as const;
const ChangeRoleBody = { type: 'object', additionalProperties: false, required: ['role'], properties: { role }, examples: [{ role: 'viewer' }] } as const;

/** The member named in the path (`docParams`): a malformed id names nothing (404). */
const memberParams = { accountId: positiveId('The member\'s account `id`') } as const;

const OWNERS_ONLY = 'Only owners change the team; an environment\'s team is its parent\'s (400)';

export const teamRoutes = {
  list: defineRoute({
    tags: ['Team'],
    summary: 'List the members and invitations',
    description: 'The members with their role, oldest first, and the pending (unused, unexpired) invitations. Any member.',
    response: withErrors({
      200: {
        description: 'The team',
        type: 'object',
        required: ['members', 'invitations'],
        properties: {
          members: { type: 'array', items: { $ref: 'Member#' } },
          invitations: { type: 'array', items: { $ref: 'Invitation#' } },
        },
      },
    }, { 404: NO_PROJECT }),
  }),

  invite: defineRoute({
    tags: ['Team'],
    summary: 'Invite someone',
    description: 'Mails `{origin}/invitations/accept?token=…`, valid 7 days and once. Inviting an address again replaces its pending invitation. Owners only.',
    body: InviteBody,
    docBody: shownBody(InviteBody, shownRole('The role given when the invitation is accepted')),
    response: withErrors({
      201: answerWith('invitation', { $ref: 'Invitation#' }, 'The invitation (the link is mailed)'),
    }, {
      400: 'A malformed address, an unknown role, an address of a member already, or an environment',
      403: OWNERS_ONLY,
      404: NO_PROJECT,
    }),
  }),

  revokeInvitation: defineRoute({
    tags: ['Team'],
    summary: 'Withdraw an invitation',
    description: 'Its link stops working. Owners only.',
    docParams: { id: positiveId('The invitation\'s `id`') },
    response: withErrors({ 204: noContent('Withdrawn') }, { 403: OWNERS_ONLY, 404: 'No such project or pending invitation' }),
  }),

  accept: defineRoute({
    tags: ['Team'],
    summary: 'Accept an invitation',
    description: 'Any signed-in account: the token (from the mailed link) proves access to the invited mailbox. The account becomes a member with the invited role (one that already has a stronger role keeps it).',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['token'],
      properties: { token: { type: 'string', maxLength: 200, description: 'The `token` of the mailed link' } },
      examples: [{ token: 'the token of the link' }],
    },
    response: withErrors({
      200: answerWith('project', { $ref: 'Project#' }, 'The project joined, with the caller\'s role'),
    }, { 400: '"This invitation is invalid or has expired" (unknown, used, withdrawn or expired)' }),
  }),

  changeRole: defineRoute({
    tags: ['Team'],
    summary: 'Change a member\'s role',
    description: 'Owners only. A project always keeps an owner.',
    body: ChangeRoleBody,
    docBody: shownBody(ChangeRoleBody, shownRole('The new role')),
    docParams: memberParams,
    response: withErrors({
      200: answerWith('member', { $ref: 'Member#' }, 'The member with the new role'),
    }, {
      400: 'An unknown role, demoting the last owner, or an environment',
      403: OWNERS_ONLY,
      404: 'No such project or member',
    }),
  }),

  removeMember: defineRoute({
    tags: ['Team'],
    summary: 'Remove a member, or leave',
    description: 'An owner removes any member; any member may remove themselves (leave the project). The last owner cannot go.',
    docParams: memberParams,
    response: withErrors({ 204: noContent('Removed') }, {
      400: 'The last owner, or an environment',
      403: 'Only owners remove others',
      404: 'No such project or member',
    }),
  }),
};
