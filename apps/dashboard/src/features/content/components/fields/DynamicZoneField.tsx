// A dynamic zone: a list of items, each any of the zone's allowed components, added from a menu,
// reordered by dragging, removed one by one.
import { Button, Menu, Stack } from '@mantine/core';
import { displayNameOf } from '../../../../model/schema.ts';
import { useEditor } from '../editor-context.ts';
import { emptyComponent, type ComponentValues } from '../form-state.ts';
import { ComponentList, FieldsetError } from './ComponentField.tsx';
import type { FieldProps } from './field-props.ts';

const componentOf = (item: ComponentValues) => item.__component ?? '';

export function DynamicZoneField(field: FieldProps) {
  const { path, name, attr } = field;
  const { form, model, renderAttributes } = useEditor();
  return (
    <ComponentList
      {...field} uidOf={componentOf}
      addControl={(full) => (
        <Menu position="bottom-start">
          <Menu.Target>
            <Button variant="default" disabled={full} style={{ alignSelf: 'flex-start' }}>Add a component to {name}</Button>
          </Menu.Target>
          <Menu.Dropdown>
            {(attr.components ?? []).map((uid) => (
              <Menu.Item key={uid} onClick={() => form.insertListItem(path, emptyComponent(model, uid, true))}>{displayNameOf(model, uid)}</Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    >
      {(item, index) => (
        <Stack>
          <FieldsetError error={form.errors[`${path}.${index}.__component`]} />
          {renderAttributes(model.components[componentOf(item)]?.attributes ?? {}, `${path}.${index}`)}
        </Stack>
      )}
    </ComponentList>
  );
}
