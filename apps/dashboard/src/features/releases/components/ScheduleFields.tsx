// A date-time on the wall clock of a time zone: Mantine's DateTimePicker (to the second) and a
// searchable list of the browser's IANA zones. The value stays local until it is sent.
import '@mantine/dates/styles.css';
import { Group, Select } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useMemo } from 'react';
import { timeZones, todayIn } from './zones.ts';

export interface ScheduleValue {
  /** `YYYY-MM-DD HH:mm:ss` on `zone`'s wall clock; null: not chosen yet */
  local: string | null;
  zone: string;
}

export function ScheduleFields({ value, onChange, errors = {}, disabled }: {
  value: ScheduleValue;
  onChange(value: ScheduleValue): void;
  errors?: { local?: string; zone?: string };
  disabled?: boolean;
}) {
  const zones = useMemo(timeZones, []);
  return (
    <Group align="flex-start" grow>
      <DateTimePicker
        label="Date and time" placeholder="Pick a date and time" withSeconds valueFormat="MMM D, YYYY HH:mm:ss"
        value={value.local} onChange={(local) => onChange({ ...value, local })} minDate={todayIn(value.zone)}
        error={errors.local} disabled={disabled} withAsterisk
        timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes', secondsInputLabel: 'Seconds' }}
        submitButtonProps={{ 'aria-label': 'Apply date and time' }}
      />
      <Select
        label="Time zone" data={zones} value={value.zone} onChange={(zone) => zone && onChange({ ...value, zone })}
        searchable allowDeselect={false} nothingFoundMessage="No such time zone" error={errors.zone} disabled={disabled} withAsterisk
      />
    </Group>
  );
}
