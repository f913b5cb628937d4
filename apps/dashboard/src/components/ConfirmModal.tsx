// Confirmation of a destructive action; with `typed`, the user must type that text first.
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';

export function ConfirmModal({ opened, onClose, title, children, confirmLabel, onConfirm, typed }: {
  opened: boolean; onClose(): void; title: string; children: ReactNode; confirmLabel: string; onConfirm(): Promise<void>; typed?: string;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setText('');
    setError(null);
    onClose();
  };
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <Stack>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Text size="sm" component="div">{children}</Text>
        {typed !== undefined && (
          <TextInput label={`Type "${typed}" to confirm`} value={text} onChange={(e) => setText(e.currentTarget.value)} autoComplete="off" />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" loading={busy} disabled={typed !== undefined && text !== typed} onClick={confirm}>{confirmLabel}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
