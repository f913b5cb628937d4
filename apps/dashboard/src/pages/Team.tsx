// A project's team: members and their roles, pending invitations, inviting by e-mail (owners),
// changing roles and removing members (owners), leaving the project (anyone).
import { Alert, Badge, Button, Card, Group, List, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useAccount } from '../features/auth/api/get-session.ts';
import { useProject, type Project, type ProjectRole } from '../features/projects/api/get-project.ts';
import { useChangeMemberRole } from '../features/team/api/change-member-role.ts';
import { useTeam, type Member } from '../features/team/api/get-team.ts';
import { useInviteMember } from '../features/team/api/invite-member.ts';
import { useLeaveProject, useRemoveMember } from '../features/team/api/remove-member.ts';
import { useWithdrawInvitation } from '../features/team/api/withdraw-invitation.ts';
import { reportFormError } from '../lib/api-error.ts';

const ROLES: Array<{ value: ProjectRole; label: string; may: string }> = [
  { value: 'owner', label: 'Owner', may: 'everything, including the team, billing and deleting the project' },
  { value: 'editor', label: 'Editor', may: 'changes the content types, locales, roles and permissions, API tokens and settings' },
  { value: 'viewer', label: 'Viewer', may: 'sees everything, changes nothing' },
];
const ROLE_OPTIONS = ROLES.map(({ value, label }) => ({ value, label }));
const roleLabel = (role: ProjectRole) => ROLES.find((r) => r.value === role)?.label ?? role;

function InviteForm({ slug }: { slug: string }) {
  const invite = useInviteMember(slug);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<{ email: string; role: ProjectRole }>({
    initialValues: { email: '', role: 'editor' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address') },
  });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      await invite.mutateAsync({ email: values.email.trim(), role: values.role });
      form.reset();
      notifications.show({ color: 'teal', title: 'Invitation sent', message: `${values.email.trim()} was invited as ${roleLabel(values.role).toLowerCase()}.` });
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not send the invitation');
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Invite someone">
      <Stack maw={640}>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Group align="flex-start">
          <TextInput label="E-mail address" type="email" autoComplete="off" required {...form.getInputProps('email')} />
          <Select label="Role" data={ROLE_OPTIONS} allowDeselect={false} {...form.getInputProps('role')} />
          <Button type="submit" mt={25} loading={form.submitting}>Send invitation</Button>
        </Group>
        <Text size="xs" c="dimmed">The link in the e-mail works once, within 7 days.</Text>
      </Stack>
    </form>
  );
}

export function TeamPage() {
  const { slug = '' } = useParams();
  const navigate = useNavigate();
  const me = useAccount();
  const project = useProject(slug);
  const team = useTeam(slug);
  const changeMemberRole = useChangeMemberRole(slug);
  const withdrawInvitation = useWithdrawInvitation(slug);
  const removeMember = useRemoveMember(slug);
  const leaveProject = useLeaveProject(slug);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [leaving, setLeaving] = useState(false);
  const isOwner = project.data?.role === 'owner';

  async function changeRole(member: Member, role: ProjectRole) {
    try {
      // Your own role may change: the project follows.
      await changeMemberRole.mutateAsync({ accountId: member.accountId, role });
      notifications.show({ color: 'teal', message: `${member.email} is now ${roleLabel(role).toLowerCase()}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not change the role', message: (err as Error).message });
    }
  }
  async function revoke(id: number, email: string) {
    try {
      await withdrawInvitation.mutateAsync(id);
      notifications.show({ color: 'teal', message: `Invitation of ${email} withdrawn` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Could not withdraw the invitation', message: (err as Error).message });
    }
  }
  async function leave(p: Project) {
    await leaveProject.mutateAsync(me.data!.id);
    notifications.show({ color: 'teal', message: `You left ${p.name}` });
    navigate('/projects');
  }

  if (project.isPending || team.isPending) return <PageLoader label="Loading the team…" />;
  const failed = project.error ?? team.error;
  if (failed) return <PageError error={failed} />;
  const { members, invitations } = team.data!;
  return (
    <Stack>
      <Title order={2}>Team</Title>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">What each role may do</Title>
        <List size="sm" spacing={4} aria-label="Roles">
          {ROLES.map((r) => <List.Item key={r.value}><b>{r.label}</b>: {r.may}.</List.Item>)}
        </List>
      </Card>
      {!isOwner && (
        <Text size="sm" role="note">
          Only owners can invite people, change roles or remove members; your role is {project.data!.role}.
        </Text>
      )}

      <Title order={3} size="h4">Members</Title>
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Members">
          <Table.Thead>
            <Table.Tr><Table.Th>E-mail</Table.Th><Table.Th>Name</Table.Th><Table.Th>Role</Table.Th><Table.Th>Since</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.map((m) => {
              const self = m.accountId === me.data?.id;
              return (
                <Table.Tr key={m.accountId}>
                  <Table.Td>{m.email} {self && <Badge ml="xs" variant="light">You</Badge>}</Table.Td>
                  <Table.Td>{m.name ?? ''}</Table.Td>
                  <Table.Td>
                    {isOwner ? (
                      <Select
                        aria-label={`Role of ${m.email}`} data={ROLE_OPTIONS} value={m.role} allowDeselect={false} size="xs" w={130}
                        onChange={(v) => v && v !== m.role && changeRole(m, v as ProjectRole)}
                      />
                    ) : roleLabel(m.role)}
                  </Table.Td>
                  <Table.Td>{new Date(m.createdAt).toLocaleDateString()}</Table.Td>
                  <Table.Td>
                    {self ? (
                      <Button size="xs" color="red" variant="light" onClick={() => setLeaving(true)}>Leave project</Button>
                    ) : isOwner && (
                      <Button size="xs" color="red" variant="light" onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>Remove</Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Title order={3} size="h4">Pending invitations</Title>
      {invitations.length === 0 ? (
        <Text size="sm">No pending invitations.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Pending invitations">
            <Table.Thead>
              <Table.Tr><Table.Th>E-mail</Table.Th><Table.Th>Role</Table.Th><Table.Th>Expires</Table.Th>{isOwner && <Table.Th>Actions</Table.Th>}</Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td>{i.email}</Table.Td>
                  <Table.Td>{roleLabel(i.role)}</Table.Td>
                  <Table.Td>{new Date(i.expiresAt).toLocaleString()}</Table.Td>
                  {isOwner && (
                    <Table.Td>
                      <Button size="xs" color="red" variant="light" onClick={() => revoke(i.id, i.email)} aria-label={`Revoke invitation of ${i.email}`}>Revoke</Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      {isOwner && (
        <Card withBorder>
          <Title order={3} size="h4" mb="sm">Invite someone</Title>
          <InviteForm slug={slug} />
        </Card>
      )}

      <ConfirmModal
        opened={removing !== null} onClose={() => setRemoving(null)} title="Remove member" confirmLabel="Remove member"
        onConfirm={async () => {
          await removeMember.mutateAsync(removing!.accountId);
          notifications.show({ color: 'teal', message: `${removing!.email} was removed` });
        }}
      >
        {removing?.email} loses access to “{project.data!.name}” at once.
      </ConfirmModal>
      <ConfirmModal
        opened={leaving} onClose={() => setLeaving(false)} title="Leave project" confirmLabel="Leave project"
        onConfirm={() => leave(project.data!)}
      >
        You lose access to “{project.data!.name}” at once; an owner can invite you again.
      </ConfirmModal>
    </Stack>
  );
}
