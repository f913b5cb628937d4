// A project's locales: add one, choose the default, delete with confirmation (not for viewers).
import { Alert, Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ConfirmModal } from '../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { EditableArea } from '../components/ViewOnly.tsx';
import { useCreateLocale } from '../features/locales/api/create-locale.ts';
import { useDeleteLocale } from '../features/locales/api/delete-locale.ts';
import { useLocales, type Locale } from '../features/locales/api/get-locales.ts';
import { useUpdateLocale } from '../features/locales/api/update-locale.ts';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { reportFormError } from '../lib/api-error.ts';

export function LocalesPage() {
  const { slug = '' } = useParams();
  const { canEdit } = useProjectRole(slug);
  const locales = useLocales(slug);
  const create = useCreateLocale(slug);
  const update = useUpdateLocale(slug);
  const remove = useDeleteLocale(slug);
  const [deleting, setDeleting] = useState<Locale | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ initialValues: { code: '', name: '' }, validate: { code: (v) => (v.trim() ? null : 'Enter a locale code such as fr or pt-BR') } });
  const add = form.onSubmit(async (values) => {
    setError(null);
    try {
      await create.mutateAsync({ code: values.code.trim(), ...(values.name ? { name: values.name } : {}) });
      form.reset();
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not add the locale');
    }
  });
  async function makeDefault(locale: Locale) {
    setError(null);
    try {
      await update.mutateAsync({ code: locale.code, body: { isDefault: true } });
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
          await remove.mutateAsync(deleting!.code);
        }}
      >
        <Text size="sm">Every document version in {deleting?.name} ({deleting?.code}) will be deleted.</Text>
      </ConfirmModal>
    </Stack>
  );
}
