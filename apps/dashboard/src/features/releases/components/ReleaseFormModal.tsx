// Create a release, or edit one's name and schedule: a name and, with "Schedule the release", the
// time it publishes by itself on a time zone's wall clock (off: not scheduled).
import { Alert, Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import { useCreateRelease } from '../api/create-release.ts';
import type { Release } from '../api/get-releases.ts';
import { useUpdateRelease } from '../api/update-release.ts';
import { ScheduleFields, type ScheduleValue } from './ScheduleFields.tsx';
import { browserZone, instantToZoned, scheduleProblem, zonedToInstant } from './zones.ts';

interface Errors {
  name?: string;
  local?: string;
  zone?: string;
  form?: string;
}

export function ReleaseFormModal({ slug, opened, editing, onClose, onSaved }: {
  slug: string; opened: boolean; editing: Release | null; onClose(): void; onSaved(release: Release): void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Edit release' : 'New release'} size="lg">
      {/* A fresh form each time it opens. */}
      {opened && <ReleaseForm slug={slug} editing={editing} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function ReleaseForm({ slug, editing, onClose, onSaved }: { slug: string; editing: Release | null; onClose(): void; onSaved(release: Release): void }) {
  const zone = editing?.timezone ?? browserZone();
  const [name, setName] = useState(editing?.name ?? '');
  const [scheduled, setScheduled] = useState(Boolean(editing?.scheduledAt));
  const [schedule, setSchedule] = useState<ScheduleValue>({ local: editing?.scheduledAt ? instantToZoned(editing.scheduledAt, zone) : null, zone });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const create = useCreateRelease();
  const update = useUpdateRelease();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = scheduled ? scheduleProblem(schedule.local, schedule.zone) : null;
    const found: Errors = { name: name.trim() ? undefined : 'Give the release a name', local: problem ?? undefined };
    setErrors(found);
    if (found.name || found.local) return;
    const body = {
      name: name.trim(),
      scheduledAt: scheduled ? zonedToInstant(schedule.local!, schedule.zone) : null,
      timezone: scheduled ? schedule.zone : null,
    };
    setBusy(true);
    try {
      // The project's releases are read again before onSaved.
      onSaved(editing ? await update.mutateAsync({ slug, id: editing.id, body }) : await create.mutateAsync({ slug, body }));
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      const next: Errors = { name: fields.name, local: fields.scheduledAt, zone: fields.timezone };
      if (!next.name && !next.local && !next.zone) next.form = err instanceof Error ? err.message : 'Could not save the release';
      setErrors(next);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit release' : 'New release'}>
      <Stack>
        {errors.form && <Alert color="red" role="alert">{errors.form}</Alert>}
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} withAsterisk data-autofocus maxLength={255} />
        <Switch
          label="Schedule the release" description="It publishes by itself at this time." checked={scheduled}
          onChange={(e) => setScheduled(e.currentTarget.checked)}
        />
        {scheduled && <ScheduleFields value={schedule} onChange={setSchedule} errors={errors} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={busy}>{editing ? 'Save' : 'Create release'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
