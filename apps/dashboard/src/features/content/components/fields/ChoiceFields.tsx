// Booleans as a switch, enumerations as a select of their values.
import { Select, Switch } from '@mantine/core';
import { useEditor } from '../editor-context.ts';
import type { FieldProps } from './field-props.ts';

export function BooleanField({ path, name, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  const input = form.getInputProps(path, { type: 'checkbox' });
  // Unset (null) shows as off and stays unset until switched.
  return <Switch label={name} description={note} disabled={readOnly} {...input} checked={input.checked === true} />;
}

export function EnumerationField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  return (
    <Select
      label={name} withAsterisk={attr.required} disabled={readOnly} description={note} data={attr.enum ?? []} clearable clearButtonProps={{ 'aria-label': `Clear ${name}` }}
      placeholder="Choose a value" {...form.getInputProps(path)}
    />
  );
}
