// The project's end users: search in username and e-mail, sort by a column, pages with the
// exact total, and (for editors and owners) role, block / unblock and delete on each row. The
// list's state lives in the URL, so a reload or the back button keeps it.
import { Alert, Button, Group, Pagination, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { errorMessage } from '../../../components/PageState.tsx';
import { useUserRoles } from '../../roles/api/get-roles.ts';
import { useDeleteEndUser } from '../api/delete-end-user.ts';
import type { EndUser } from '../api/end-user.ts';
import { useEndUsers } from '../api/get-end-users.ts';
import { useUpdateEndUser, type EndUserChanges } from '../api/update-end-user.ts';
import { CreateUserModal } from './CreateUserModal.tsx';
import { readUsersState, USER_PAGE_SIZES, writeUsersState, type SortField, type UsersListState } from './users-list.ts';

const COLUMNS: Array<{ field: SortField | 'role'; label: string }> = [
  { field: 'username', label: 'Username' },
  { field: 'email', label: 'E-mail' },
  { field: 'role', label: 'Role' },
  { field: 'confirmed', label: 'Confirmed' },
  { field: 'blocked', label: 'Blocked' },
  { field: 'createdAt', label: 'Created' },
];

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function UsersTable({ slug, canEdit }: { slug: string; canEdit: boolean }) {
  const [params, setParams] = useSearchParams();
  const state = readUsersState(params);
  const update = (patch: Partial<UsersListState>) => setParams(writeUsersState(params, { ...state, ...patch }));
  const page = useEndUsers(slug, state);
  const roles = useUserRoles(slug);
  const updateUser = useUpdateEndUser(slug);
  const deleteUser = useDeleteEndUser(slug);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<EndUser | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  // Typing in the search box asks the API once the typing pauses.
  const [search, setSearch] = useState(state.q);
  const sendSearch = useDebouncedCallback((q: string) => update({ q, page: 1 }), 300);

  async function change(user: EndUser, changes: EndUserChanges, done: string) {
    setBusy(user.id);
    try {
      await updateUser.mutateAsync({ id: user.id, changes });
      notifications.show({ color: 'teal', message: done });
    } catch (err) {
      notifications.show({ color: 'red', title: `Could not change ${user.username}`, message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }
  const sortBy = (field: SortField) =>
    update({ sort: { field, desc: state.sort.field === field ? !state.sort.desc : field === 'createdAt' }, page: 1 });

  const data = page.data;
  const first = data && data.rows.length ? (state.page - 1) * state.pageSize + 1 : 0;
  const last = data ? (state.page - 1) * state.pageSize + data.rows.length : 0;
  const pageCount = data ? Math.ceil(data.total / state.pageSize) : 0;
  const roleName = (user: EndUser) => user.role?.name ?? '–';
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Search" placeholder="Username or e-mail" w={280} value={search}
          onChange={(e) => { setSearch(e.currentTarget.value); sendSearch(e.currentTarget.value); }}
        />
        {canEdit && <Button onClick={() => setCreating(true)}>Create user</Button>}
      </Group>
      {page.isError && <Alert color="red" role="alert" title="Could not load the end users">{errorMessage(page.error)}</Alert>}
      <Table.ScrollContainer minWidth={760}>
        <Table aria-label="End users" aria-busy={page.isFetching} striped highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map(({ field, label }) => {
                if (field === 'role') return <Table.Th key={field}>{label}</Table.Th>;
                const sorted = state.sort.field === field ? (state.sort.desc ? 'descending' : 'ascending') : undefined;
                return (
                  <Table.Th key={field} aria-sort={sorted}>
                    <UnstyledButton onClick={() => sortBy(field)} fw={700} fz="sm">
                      {label}{sorted === 'ascending' ? ' ↑' : sorted === 'descending' ? ' ↓' : ''}
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
              {canEdit && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.rows.map((user) => (
              <Table.Tr key={user.id}>
                <Table.Td>{user.username}</Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>
                  {canEdit && roles.options.length ? (
                    <Select
                      aria-label={`Role of ${user.username}`} data={roles.options} value={user.role?.type ?? null} allowDeselect={false} size="xs" w={160}
                      disabled={busy === user.id}
                      onChange={(type) => type && type !== user.role?.type
                        && change(user, { role: type }, `${user.username} is now ${roles.options.find((o) => o.value === type)?.label ?? type}`)}
                    />
                  ) : roleName(user)}
                </Table.Td>
                <Table.Td>{yesNo(user.confirmed)}</Table.Td>
                <Table.Td>{user.blocked ? <Text span fw={700} c="red.9" fz="sm">Yes</Text> : 'No'}</Table.Td>
                <Table.Td>{dayjs(user.createdAt).format('YYYY-MM-DD HH:mm')}</Table.Td>
                {canEdit && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="xs" variant="default" loading={busy === user.id}
                        aria-label={`${user.blocked ? 'Unblock' : 'Block'} ${user.username}`}
                        onClick={() => change(user, { blocked: !user.blocked }, `${user.username} is ${user.blocked ? 'unblocked' : 'blocked'}`)}
                      >
                        {user.blocked ? 'Unblock' : 'Block'}
                      </Button>
                      <Button size="xs" variant="light" color="red" aria-label={`Delete ${user.username}`} onClick={() => setDeleting(user)}>Delete</Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page.isPending && <Text c="dimmed" size="sm" role="status">Loading end users…</Text>}
      {data && data.rows.length === 0 && (
        <Text c="dimmed" size="sm">{state.q ? `No end user matches “${state.q}”.` : 'No end users yet. They appear here when they register through your API or you create one.'}</Text>
      )}
      <Group justify="space-between">
        <Text size="sm" role="status" data-testid="users-total">
          {data && data.rows.length > 0 && `${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${data.total.toLocaleString('en')} ${data.total === 1 ? 'user' : 'users'}`}
        </Text>
        <Group gap="sm" align="flex-end">
          <Select
            label="Users per page" data={USER_PAGE_SIZES.map(String)} value={String(state.pageSize)} w={140}
            onChange={(v) => v && update({ pageSize: Number(v), page: 1 })} allowDeselect={false}
          />
          <Pagination
            total={pageCount} value={state.page} onChange={(p) => update({ page: p })} aria-label="Pages"
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control] })}
          />
        </Group>
      </Group>
      {canEdit && (
        <CreateUserModal
          slug={slug} opened={creating} onClose={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            notifications.show({ color: 'teal', message: `${user.username} was created` });
          }}
        />
      )}
      <ConfirmModal
        opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete end user" confirmLabel="Delete user"
        onConfirm={async () => {
          await deleteUser.mutateAsync(deleting!.id);
          // The last row of a later page: show the page before.
          if (data?.rows.length === 1 && state.page > 1) update({ page: state.page - 1 });
          notifications.show({ color: 'teal', message: `${deleting!.username} was deleted` });
        }}
      >
        “{deleting?.username}” ({deleting?.email}) is deleted: their JWTs stop working at once. This cannot be undone.
      </ConfirmModal>
    </Stack>
  );
}
