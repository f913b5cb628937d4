// "Delete environment": which one (the one open, by default), confirmed by typing its name. The
// parent keeps its own content and media; a page of the deleted environment goes to the parent's.
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage } from '../../../components/PageState.tsx';
import { useDeleteEnvironment } from '../api/delete-environment.ts';
import type { Environment } from '../api/get-environments.ts';

export function DeleteEnvironmentModal({ parent, parentName, environments, initial, opened, onClose, onDeleted }: {
  parent: string; parentName: string; environments: Environment[]; initial: string | null; opened: boolean; onClose(): void;
  onDeleted(name: string): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Delete environment">
      {opened && (
        <DeleteForm parent={parent} parentName={parentName} environments={environments} initial={initial} onClose={onClose} onDeleted={onDeleted} />
      )}
    </Modal>
  );
}

function DeleteForm({ parent, parentName, environments, initial, onClose, onDeleted }: {
  parent: string; parentName: string; environments: Environment[]; initial: string | null; onClose(): void; onDeleted(name: string): void;
}) {
  const remove = useDeleteEnvironment(parent);
  const [name, setName] = useState(initial ?? environments[0]?.name ?? '');
  const [typed, setTyped] = useState('');
  const chosen = environments.find((e) => e.name === name);

  const submit = () => {
    if (!chosen || typed !== chosen.name) return;
    remove.mutate(chosen.name, {
      onSuccess: () => {
        notifications.show({ color: 'teal', message: `Deleted the environment ${chosen.slug}` });
        onDeleted(chosen.name);
        onClose();
      },
    });
  };

  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label="Delete environment">
      <Stack>
        {remove.isError && <Alert color="red" role="alert" title="Could not delete the environment">{errorMessage(remove.error)}</Alert>}
        <NativeSelect
          label="Environment" value={name} onChange={(e) => { setName(e.currentTarget.value); setTyped(''); }}
          data={environments.map((e) => ({ value: e.name, label: `${e.name} (${e.slug})` }))}
        />
        {chosen && (
          <>
            <Alert color="red" variant="light" role="note" title={`Delete ${chosen.slug}?`}>
              Its content, media and model changes not promoted are deleted. {parentName} keeps its own content and media.
            </Alert>
            {chosen.status === 'failed' && chosen.error && <Text size="sm">The copy failed: {chosen.error}</Text>}
            <TextInput label={`Type "${chosen.name}" to confirm`} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" color="red" loading={remove.isPending} disabled={!chosen || typed !== chosen.name}>Delete environment</Button>
        </Group>
      </Stack>
    </form>
  );
}
