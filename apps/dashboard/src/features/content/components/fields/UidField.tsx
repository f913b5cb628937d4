// A uid: generated from its target field (while a new document's uid was not typed by hand, and
// on demand), checked live against the type's other documents of the same locale, drafts included.
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useUidTaken } from '../../api/check-uid.ts';
import { isSingleType } from '../content-model.ts';
import { useEditor, valueAt } from '../editor-context.ts';
import { joinHints, lengthHint, type FieldProps } from './field-props.ts';

/** Strapi's uid alphabet (`^[A-Za-z0-9-_.~]*$`) from any text: `Hello, World!` → `hello-world`. */
export function uidFrom(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9_.~]+/g, '-').replace(/^-+|-+$/g, '');
}

export function UidField({ path, name, attr, note }: FieldProps) {
  const { form, readOnly, slug, type, locale, documentId } = useEditor();
  const value = String(valueAt(form.getValues(), path) ?? '');
  // The target field is a sibling: same path but its own last segment.
  const sourcePath = attr.targetField ? [...path.split('.').slice(0, -1), attr.targetField].join('.') : null;
  const source = sourcePath ? String(valueAt(form.getValues(), sourcePath) ?? '') : '';
  const typedByHand = useRef(Boolean(documentId) || value !== '');

  useEffect(() => {
    if (!typedByHand.current && sourcePath && !readOnly) form.setFieldValue(path, uidFrom(source));
  }, [source]); // eslint-disable-line react-hooks/exhaustive-deps -- follows the source text only

  const [checked] = useDebouncedValue(value, 300);
  // Only a collection type's own uid can be looked up in its list (not one inside a component).
  const checkable = !isSingleType(type) && !path.includes('.') && checked !== '' && !readOnly;
  const availability = useUidTaken({ slug, type, locale, documentId }, name, checked, checkable);
  const current = checkable && checked === value;
  const taken = current && availability.data === true;
  const input = form.getInputProps(path);
  return (
    <Stack gap={4}>
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <TextInput
          style={{ flex: 1 }} label={name} withAsterisk={attr.required} disabled={readOnly}
          description={joinHints(lengthHint(attr), sourcePath ? `Generated from ${attr.targetField}` : null, note)}
          {...input}
          error={input.error ?? (taken ? `Taken: another document uses ${checked}` : undefined)}
          onChange={(e) => {
            typedByHand.current = true;
            input.onChange(e);
          }}
        />
        {sourcePath && !readOnly && (
          <Button variant="default" onClick={() => form.setFieldValue(path, uidFrom(source))}>Regenerate {name}</Button>
        )}
      </Group>
      <Text size="sm" c={current && availability.data === false ? 'teal.9' : 'dimmed'} role="status" aria-live="polite">
        {!current || taken ? '' : availability.isPending ? 'Checking availability…' : availability.isError ? 'Could not check availability' : `Available: ${checked}`}
      </Text>
    </Stack>
  );
}
