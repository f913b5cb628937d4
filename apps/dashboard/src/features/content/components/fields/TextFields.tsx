// Short and long text, e-mail and password inputs, with the attribute's limits under the label.
import { PasswordInput, Textarea, TextInput } from '@mantine/core';
import { useEditor } from '../editor-context.ts';
import { joinHints, lengthHint, regexHint, type FieldProps } from './field-props.ts';

export function TextField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly } = useEditor();
  const common = {
    label: name, withAsterisk: attr.required, disabled: readOnly,
    description: joinHints(lengthHint(attr), regexHint(attr), note),
    ...form.getInputProps(path),
  };
  if (attr.type === 'text') return <Textarea autosize minRows={2} maxRows={12} {...common} />;
  return <TextInput type={attr.type === 'email' ? 'email' : 'text'} {...common} />;
}

/** The API never returns passwords (nor private attributes): the input starts empty and empty keeps what is stored. */
export function WriteOnlyField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly, documentId } = useEditor();
  const kept = documentId ? 'Never shown: leave empty to keep the current value' : null;
  const description = joinHints(lengthHint(attr), regexHint(attr), kept, note);
  if (attr.type === 'password') {
    return <PasswordInput label={name} withAsterisk={attr.required} disabled={readOnly} description={description} autoComplete="new-password" {...form.getInputProps(path)} />;
  }
  return <TextInput label={name} withAsterisk={attr.required} disabled={readOnly} description={description} autoComplete="off" {...form.getInputProps(path)} />;
}
