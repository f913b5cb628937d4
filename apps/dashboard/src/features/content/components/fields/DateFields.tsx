// Dates, times and datetimes with Mantine's pickers. Each can be typed too: dates as YYYY-MM-DD,
// times with seconds, datetimes in the browser's time zone (the API stores them in UTC).
import '@mantine/dates/styles.css';
import { DateInput, TimeInput } from '@mantine/dates';
import { useEditor } from '../editor-context.ts';
import { DATETIME_FORMAT } from '../form-state.ts';
import { joinHints, type FieldProps } from './field-props.ts';

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function DateField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  const withTime = attr.type === 'datetime';
  return (
    <DateInput
      label={name} withAsterisk={attr.required} disabled={readOnly} clearable clearButtonProps={{ 'aria-label': `Clear ${name}` }} withTime={withTime}
      valueFormat={withTime ? DATETIME_FORMAT : 'YYYY-MM-DD'} placeholder={withTime ? DATETIME_FORMAT : 'YYYY-MM-DD'}
      description={joinHints(withTime ? `Your time zone (${zone})` : null, note)}
      {...form.getInputProps(path)}
    />
  );
}

export function TimeField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  return <TimeInput label={name} withAsterisk={attr.required} disabled={readOnly} withSeconds description={note} {...form.getInputProps(path)} />;
}
