// The editor's "Schedule": publish or unpublish this entry (in this locale) at a date and time on
// a time zone's wall clock; the platform turns it into the exact instant, DST included.
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../../lib/api-error.ts';
import type { ActionType } from '../../../releases/api/get-release-actions.ts';
import { useScheduleAction } from '../../../releases/api/schedule-action.ts';
import { ScheduleFields, type ScheduleValue } from '../../../releases/components/ScheduleFields.tsx';
import { browserZone, scheduleProblem, zonedLabel, zonedToInstant } from '../../../releases/components/zones.ts';
import { ActionTypeRadio } from './ActionTypeRadio.tsx';
import { localeField, type EntryTarget } from './entry-target.ts';

export function ScheduleEntry({ target }: { target: EntryTarget }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>Schedule</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Schedule" size="lg">
        {opened && <ScheduleForm target={target} onDone={() => setOpened(false)} />}
      </Modal>
    </>
  );
}

function ScheduleForm({ target, onDone }: { target: EntryTarget; onDone(): void }) {
  const scheduleAction = useScheduleAction();
  const [type, setType] = useState<ActionType>('publish');
  const [when, setWhen] = useState<ScheduleValue>({ local: null, zone: browserZone() });
  const [errors, setErrors] = useState<{ local?: string; zone?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = scheduleProblem(when.local, when.zone);
    setErrors(problem ? { local: problem } : {});
    if (problem) return;
    setBusy(true);
    try {
      // The wall-clock time as it is (no offset): the platform reads it on the zone's clock.
      const datetime = when.local!.replace(' ', 'T');
      await scheduleAction.mutateAsync({
        slug: target.slug,
        body: { contentType: target.uid, documentId: target.documentId, action: type, scheduledFor: { datetime, timezone: when.zone }, ...localeField(target) },
      });
      notifications.show({ color: 'teal', message: `${type === 'publish' ? 'Publish' : 'Unpublish'} scheduled for ${zonedLabel(zonedToInstant(when.local!, when.zone), when.zone)}` });
      onDone();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      const next = { local: fields['scheduledFor.datetime'], zone: fields['scheduledFor.timezone'] };
      setErrors(next.local || next.zone ? next : { form: err instanceof Error ? err.message : 'Could not schedule the entry' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Schedule">
      <Stack>
        {errors.form && <Alert color="red" role="alert">{errors.form}</Alert>}
        <ActionTypeRadio value={type} onChange={setType} />
        <ScheduleFields value={when} onChange={setWhen} errors={errors} />
        {type === 'publish' && <Text size="sm" c="dimmed">The entry’s draft is published as it is at that time.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={busy}>Schedule</Button>
        </Group>
      </Stack>
    </form>
  );
}
