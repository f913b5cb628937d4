// The permission map `{uid: [action]}` of a role or custom token as a table of checkboxes:
// a row per content type and plugin, a column per action it has.
import { Checkbox, Group, Table, Text } from '@mantine/core';
import type { ProjectSchema } from '../features/schema/api/get-schema.ts';
import type { Schemas } from '../lib/api-client.ts';

export type PermissionMap = Schemas['PermissionMap'];

const CONTENT_TYPE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete', 'createLocalization'];
// API tokens may also read drafts where the project's draft access rule asks for it (docs/preview.md).
const TOKEN_CONTENT_TYPE_ACTIONS = [...CONTENT_TYPE_ACTIONS, 'preview'];
const PLUGINS: Array<{ uid: string; label: string; actions: string[] }> = [
  { uid: 'plugin::upload', label: 'Media library (upload)', actions: ['find', 'findOne', 'upload', 'update', 'destroy'] },
  { uid: 'plugin::users-permissions', label: 'End users', actions: ['me', 'find', 'findOne', 'count', 'create', 'update', 'destroy'] },
  { uid: 'plugin::users-permissions.role', label: 'End-user roles', actions: ['find', 'findOne', 'create', 'update', 'delete'] },
];

export function permissionRows(schema: ProjectSchema | undefined, forToken = false) {
  const actions = forToken ? TOKEN_CONTENT_TYPE_ACTIONS : CONTENT_TYPE_ACTIONS;
  const types = Object.entries(schema?.contentTypes ?? {}).map(([uid, t]) => ({ uid, label: t.info.displayName ?? t.info.singularName, actions }));
  return [...types, ...PLUGINS];
}

/** `forToken`: an API token's permissions (content types also offer `preview`). */
export function PermissionMatrix({ schema, value, onChange, label, forToken = false }: {
  schema: ProjectSchema | undefined; value: PermissionMap; onChange(next: PermissionMap): void; label: string; forToken?: boolean;
}) {
  const rows = permissionRows(schema, forToken);
  const toggle = (uid: string, action: string, on: boolean) => {
    const current = new Set(value[uid] ?? []);
    if (on) current.add(action);
    else current.delete(action);
    const next = { ...value };
    if (current.size) next[uid] = [...current];
    else delete next[uid];
    onChange(next);
  };
  return (
    <Table.ScrollContainer minWidth={500}>
      <Table aria-label={label} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr><Table.Th>Type</Table.Th><Table.Th>Allowed actions</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.uid}>
              <Table.Td><Text size="sm" fw={500}>{row.label}</Text><Text size="xs" c="dimmed" ff="monospace">{row.uid}</Text></Table.Td>
              <Table.Td>
                <Group gap="md">
                  {row.actions.map((action) => (
                    <Checkbox
                      key={action} label={action} aria-label={`${action} on ${row.label}`}
                      checked={value[row.uid]?.includes(action) ?? false}
                      onChange={(e) => toggle(row.uid, action, e.currentTarget.checked)}
                    />
                  ))}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
