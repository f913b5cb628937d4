// A project's locales: add one, choose the default, delete with confirmation (not for viewers).
import { Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api, type Locale, reportFormError } from '../api.ts';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { projectKey, useLocales, useProjectRole } from '../project.ts';

export function LocalesPage() {
  const { slug = '' } = useParams();
  const client = useQueryClient();
  const { canEdit } = useProjectRole(slug);
  const key = projectKey(slug, 'locales');
  const locales = useLocales(slug);
  const [deleting, setDeleting] = useState<Locale | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ initialValues: { code: '', name: '' }, validate: { code: (v) => (v.trim() ? null : 'Enter a locale code such as fr or pt-BR') } });
  const add = form.onSubmit(async (values) => {
    setError(null);
    try {
      await api('POST', `/v1/projects/${slug}/locales`, { code: values.code.trim(), ...(values.name ? { name: values.name } : {}) });
      form.reset();
      await client.invalidateQueries({ queryKey: key });
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not add the locale');
    }
  });
  async function makeDefault(locale: Locale) {
    setError(null);
    try {
      await api('PATCH', `/v1/projects/${slug}/locales/${locale.code}`, { isDefault: true });
      // The project's defaultLocale follows.
      await client.invalidateQueries({ queryKey: projectKey(slug) });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not change the default locale');
    }
  }
  return (
    <Stack>
      <Title order={2}>Locales</Title>
      <Text size="sm" c="dimmed">Entries are created in the default locale when a request names none.</Text>
      {locales.isPending && <PageLoader label="Loading locales…" />}
      {locales.isError && <PageError error={locales.error} />}
      {locales.data && (
        <Table aria-label="Locales" maw={640}>
          <Table.Thead><Table.Tr><Table.Th>Code</Table.Th><Table.Th>Name</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
          <Table.Tbody>
            {locales.data.map((l) => (
              <Table.Tr key={l.code}>
                <Table.Td ff="monospace">{l.code}</Table.Td>
                <Table.Td>{l.name} {l.isDefault && <Badge ml="xs" variant="light">Default</Badge>}</Table.Td>
                <Table.Td>
                  {!l.isDefault && canEdit && (
                    <Group gap="xs">
                      <Button size="xs" variant="default" onClick={() => makeDefault(l)} aria-label={`Make default ${l.code}`}>Make default</Button>
                      <Button size="xs" color="red" variant="light" onClick={() => setDeleting(l)} aria-label={`Delete ${l.code}`}>Delete</Button>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <EditableArea readOnly={!canEdit}>
        <form onSubmit={add} aria-label="Add locale">
          <Stack maw={640}>
            {error && <Alert color="red" role="alert">{error}</Alert>}
            <Group align="flex-end">
              <TextInput label="Locale code" placeholder="fr" {...form.getInputProps('code')} />
              <TextInput label="Name (optional)" placeholder="French (fr)" {...form.getInputProps('name')} />
              <Button type="submit" loading={form.submitting}>Add locale</Button>
            </Group>
          </Stack>
        </form>
      </EditableArea>
      <ConfirmModal
        opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete locale" confirmLabel="Delete locale"
        onConfirm={async () => {
          await api('DELETE', `/v1/projects/${slug}/locales/${deleting!.code}`);
          await client.invalidateQueries({ queryKey: key });
        }}
      >
        <Text size="sm">Every document version in {deleting?.name} ({deleting?.code}) will be deleted.</Text>
      </ConfirmModal>
    </Stack>
  );
}
