// Components: a single one (add, fill, remove) or a repeatable list (add up to its maximum,
// reorder by dragging, remove), each item showing the component's own fields, nested ones too.
import { Button, Fieldset, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { displayNameOf, type Model } from '../../../../model/schema.ts';
import { mainFieldOf } from '../content-model.ts';
import { useEditor, valueAt } from '../editor-context.ts';
import { emptyComponent, type ComponentValues } from '../form-state.ts';
import { countHint, joinHints, type FieldProps } from './field-props.ts';
import { SortableItems } from './SortableItems.tsx';

/** An item's heading: the component's name and position, and its main field once filled. */
export function itemTitle(model: Model, uid: string, item: ComponentValues, index: number): string {
  const main = mainFieldOf(model.components[uid]);
  const named = main ? String(item[main] ?? '').trim() : '';
  return `${displayNameOf(model, uid)} ${index + 1}${named ? `: ${named}` : ''}`;
}

/** The error the API gave the attribute itself (a count, a required component), under its legend. */
export function FieldsetError({ error }: { error: unknown }) {
  if (!error) return null;
  return <Text size="sm" c="var(--mantine-color-error)" role="alert">{String(error)}</Text>;
}

/** The attribute's name, with " *" when it is required. */
const legendOf = ({ name, attr }: FieldProps) => `${name}${attr.required ? ' *' : ''}`;

/**
 * A list of components (a repeatable component, a dynamic zone): its count against its limits,
 * the API's error on it, its items to reorder and remove, and for writers the control that adds
 * one (disabled once the list is full).
 */
export function ComponentList({ uidOf, children, addControl, ...field }: FieldProps & {
  /** the component of an item */
  uidOf(item: ComponentValues): string;
  /** an item's fields */
  children(item: ComponentValues, index: number): ReactNode;
  addControl(full: boolean): ReactNode;
}) {
  const { path, attr, note } = field;
  const { form, model, readOnly } = useEditor();
  const items = (valueAt(form.getValues(), path) ?? []) as ComponentValues[];
  const full = attr.max !== undefined && items.length >= Number(attr.max);
  return (
    <Fieldset legend={legendOf(field)}>
      <Stack>
        <Text size="sm" c="dimmed">{joinHints(`${items.length} ${items.length === 1 ? 'item' : 'items'}`, countHint(attr), note)}</Text>
        <FieldsetError error={form.errors[path]} />
        <SortableItems
          items={items} readOnly={readOnly}
          onMove={(from, to) => form.reorderListItem(path, { from, to })}
          onRemove={(index) => form.removeListItem(path, index)}
          title={(item, index) => itemTitle(model, uidOf(item), item, index)}
        >
          {children}
        </SortableItems>
        {!readOnly && addControl(full)}
      </Stack>
    </Fieldset>
  );
}

export function ComponentField(field: FieldProps) {
  const { path, name, attr, note } = field;
  const { form, model, readOnly, renderAttributes } = useEditor();
  const uid = attr.component ?? '';
  const attributes = model.components[uid]?.attributes ?? {};

  if (!attr.repeatable) {
    const item = valueAt(form.getValues(), path) as ComponentValues | null;
    return (
      <Fieldset legend={legendOf(field)}>
        <Stack>
          {note && <Text size="sm" c="dimmed">{note}</Text>}
          <FieldsetError error={form.errors[path]} />
          {item ? renderAttributes(attributes, path) : <Text size="sm" c="dimmed">No {displayNameOf(model, uid)} yet.</Text>}
          {!readOnly && (item
            ? <Button variant="subtle" color="red" onClick={() => form.setFieldValue(path, null)} style={{ alignSelf: 'flex-start' }}>Remove {name}</Button>
            : <Button variant="default" onClick={() => form.setFieldValue(path, emptyComponent(model, uid, false))} style={{ alignSelf: 'flex-start' }}>Add {name}</Button>)}
        </Stack>
      </Fieldset>
    );
  }

  return (
    <ComponentList
      {...field} uidOf={() => uid}
      addControl={(full) => (
        <Button variant="default" disabled={full} onClick={() => form.insertListItem(path, emptyComponent(model, uid, false))} style={{ alignSelf: 'flex-start' }}>
          Add an item to {name}
        </Button>
      )}
    >
      {(_, index) => renderAttributes(attributes, `${path}.${index}`)}
    </ComponentList>
  );
}
