// The fields of a set of attributes (a content type's, or a component's under its path), one
// input per attribute kind.
import { Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { AttributeSchema } from '../../../../model/schema.ts';
import { isAttributeLocalized, isLocalized } from '../content-model.ts';
import { useEditor } from '../editor-context.ts';
import { BooleanField, EnumerationField } from './ChoiceFields.tsx';
import { ComponentField } from './ComponentField.tsx';
import { DateField, TimeField } from './DateFields.tsx';
import { DynamicZoneField } from './DynamicZoneField.tsx';
import { BlocksField, JsonField, MarkdownField, MediaAttributeField, RelationField } from './ExternalFields.tsx';
import type { FieldProps } from './field-props.ts';
import { NumberField } from './NumberField.tsx';
import { TextField, WriteOnlyField } from './TextFields.tsx';
import { UidField } from './UidField.tsx';

const FIELDS: Record<AttributeSchema['type'], (props: FieldProps) => ReactNode> = {
  string: TextField, text: TextField, email: TextField, password: WriteOnlyField, uid: UidField,
  richtext: MarkdownField, blocks: BlocksField, json: JsonField,
  integer: NumberField, biginteger: NumberField, float: NumberField, decimal: NumberField,
  boolean: BooleanField, enumeration: EnumerationField,
  date: DateField, time: TimeField, datetime: DateField,
  media: MediaAttributeField, relation: RelationField, component: ComponentField, dynamiczone: DynamicZoneField,
};

const WRITE_ONLY_TEXT = new Set<AttributeSchema['type']>(['string', 'text', 'richtext', 'email', 'uid']);

export function AttributeFields({ attributes, prefix }: { attributes: Record<string, AttributeSchema>; prefix: string }) {
  const { type } = useEditor();
  const unreadable: string[] = [];
  const fields = Object.entries(attributes).map(([name, attr]) => {
    const path = prefix ? `${prefix}.${name}` : name;
    // A private attribute is never output by the API: text can still be written blind, the rest not.
    if (attr.private && attr.type !== 'password') {
      if (!WRITE_ONLY_TEXT.has(attr.type)) {
        unreadable.push(name);
        return null;
      }
      return <WriteOnlyField key={path} path={path} name={name} attr={attr} />;
    }
    const note = !prefix && isLocalized(type) && !isAttributeLocalized(type, attr) ? 'Same in every locale' : undefined;
    const Field = FIELDS[attr.type];
    return Field ? <Field key={path} path={path} name={name} attr={attr} note={note} /> : null;
  });
  return (
    <Stack gap="md">
      {fields}
      {unreadable.length > 0 && <Text size="sm" c="dimmed">Private, not shown here: {unreadable.join(', ')}.</Text>}
    </Stack>
  );
}
