// Create or edit a webhook: name, URL, events, extra headers (key/value rows), enabled.
import { ActionIcon, Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { useCreateWebhook } from '../api/create-webhook.ts';
import type { Webhook, WebhookEvent } from '../api/get-webhooks.ts';
import { useUpdateWebhook } from '../api/update-webhook.ts';
import { DEFAULT_EVENTS, WEBHOOK_EVENTS } from './webhook-events.ts';

interface HeaderRow {
  key: string;
  value: string;
}

interface Values {
  name: string;
  url: string;
  events: WebhookEvent[];
  headers: HeaderRow[];
  enabled: boolean;
}

const valuesOf = (hook: Webhook | null): Values => ({
  name: hook?.name ?? '',
  url: hook?.url ?? '',
  events: hook?.events ?? DEFAULT_EVENTS,
  headers: Object.entries(hook?.headers ?? {}).map(([key, value]) => ({ key, value })),
  enabled: hook?.enabled ?? true,
});

export function WebhookFormModal({ slug, opened, editing, onClose, onCreated }: {
  slug: string; opened: boolean; editing: Webhook | null; onClose(): void; onCreated(secret: string, name: string): void;
}) {
  const create = useCreateWebhook(slug);
  const update = useUpdateWebhook(slug);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    initialValues: valuesOf(editing),
    validate: {
      name: (v) => (v.trim() ? null : 'Give the webhook a name'),
      url: (v) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : 'Enter an http:// or https:// URL'),
      events: (v) => (v.length ? null : 'Choose at least one event'),
    },
  });
  // A new form for each webhook opened.
  useEffect(() => {
    if (opened) {
      form.setValues(valuesOf(editing));
      form.resetDirty(valuesOf(editing));
      form.clearErrors();
      setFormError(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, editing?.id]);

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const body = {
      name: values.name.trim(), url: values.url.trim(), events: values.events, enabled: values.enabled,
      headers: Object.fromEntries(values.headers.filter((h) => h.key.trim()).map((h) => [h.key.trim(), h.value])),
    };
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, body });
      } else {
        const { secret } = await create.mutateAsync(body);
        onCreated(secret, body.name);
      }
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      const known = Object.entries(fields).filter(([k]) => k === 'name' || k === 'url' || k === 'events');
      if (known.length) form.setErrors(Object.fromEntries(known));
      else setFormError(Object.values(fields)[0] ?? (err instanceof Error ? err.message : 'Could not save the webhook'));
    }
  });

  const title = editing ? `Edit webhook “${editing.name}”` : 'Create webhook';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={submit} noValidate aria-label={title}>
        <Stack>
          {formError && <Alert color="red" role="alert">{formError}</Alert>}
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <TextInput label="URL" required placeholder="https://example.com/hooks/cms" {...form.getInputProps('url')} />
          <Checkbox.Group label="Events" required {...form.getInputProps('events')}>
            <SimpleGrid cols={2} mt="xs" spacing="xs">
              {WEBHOOK_EVENTS.map((e) => <Checkbox key={e.value} value={e.value} label={<>{e.label} <Text span size="xs" c="dimmed">{e.value}</Text></>} />)}
            </SimpleGrid>
          </Checkbox.Group>
          <Stack gap="xs">
            <Text size="sm" fw={500}>Headers</Text>
            {form.values.headers.length === 0 && <Text size="sm" c="dimmed">No extra headers. Every request is signed with X-Webhook-Signature.</Text>}
            {form.values.headers.map((_, i) => (
              <Group key={i} align="flex-end" wrap="nowrap">
                <TextInput label={`Header ${i + 1} name`} placeholder="Authorization" style={{ flex: 1 }} {...form.getInputProps(`headers.${i}.key`)} />
                <TextInput label={`Header ${i + 1} value`} style={{ flex: 2 }} {...form.getInputProps(`headers.${i}.value`)} />
                <ActionIcon variant="subtle" color="red" size="lg" mb={2} aria-label={`Remove header ${i + 1}`} onClick={() => form.removeListItem('headers', i)}>✕</ActionIcon>
              </Group>
            ))}
            <Group>
              <Button variant="light" size="xs" onClick={() => form.insertListItem('headers', { key: '', value: '' })}>Add header</Button>
            </Group>
          </Stack>
          <Switch label="Enabled" {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={form.submitting}>{editing ? 'Save webhook' : 'Create webhook'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
