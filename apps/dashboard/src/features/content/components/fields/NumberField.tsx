// Integers, floats and decimals as number inputs; big integers as text (beyond what a JavaScript
// number holds exactly), sent to the API as strings.
import { NumberInput, TextInput } from '@mantine/core';
import { useEditor } from '../editor-context.ts';
import { joinHints, rangeHint, type FieldProps } from './field-props.ts';

export function NumberField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  const description = joinHints(rangeHint(attr), attr.type === 'integer' ? 'Whole number' : null, note);
  if (attr.type === 'biginteger') {
    return (
      <TextInput
        label={name} withAsterisk={attr.required} disabled={readOnly} inputMode="numeric" description={joinHints(rangeHint(attr), 'Whole number of any size', note)}
        {...form.getInputProps(path)}
      />
    );
  }
  const bound = (v: number | string | undefined) => (v === undefined ? undefined : Number(v));
  return (
    <NumberInput
      label={name} withAsterisk={attr.required} disabled={readOnly} description={description}
      min={bound(attr.min)} max={bound(attr.max)} allowDecimal={attr.type !== 'integer'} clampBehavior="none"
      {...form.getInputProps(path)}
    />
  );
}
