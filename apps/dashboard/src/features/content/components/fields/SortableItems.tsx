// A reorderable list (repeatable components, dynamic zones): drag an item by its handle with the
// mouse, or focus the handle and use Space and the arrow keys.
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SortableItem {
  __key: string;
}

export function SortableItems<T extends SortableItem>({ items, onMove, onRemove, title, children, readOnly }: {
  items: T[];
  onMove(from: number, to: number): void;
  onRemove(index: number): void;
  /** The item's heading (its label also names its handle and remove button). */
  title(item: T, index: number): string;
  children(item: T, index: number): ReactNode;
  readOnly: boolean;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = items.findIndex((i) => i.__key === active.id);
    const to = items.findIndex((i) => i.__key === over.id);
    if (from >= 0 && to >= 0) onMove(from, to);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={items.map((i) => i.__key)} strategy={verticalListSortingStrategy}>
        <Stack gap="sm">
          {items.map((item, index) => (
            <Row key={item.__key} id={item.__key} title={title(item, index)} readOnly={readOnly} onRemove={() => onRemove(index)}>
              {children(item, index)}
            </Row>
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

function Row({ id, title, readOnly, onRemove, children }: { id: string; title: string; readOnly: boolean; onRemove(): void; children: ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: readOnly });
  return (
    <Card
      ref={setNodeRef} withBorder padding="sm" role="group" aria-label={title}
      style={{ transform: CSS.Transform.toString(transform), transition, zIndex: isDragging ? 1 : undefined, position: 'relative' }}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {!readOnly && (
            <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={`Reorder ${title}`} {...attributes} {...listeners} style={{ cursor: 'grab', touchAction: 'none' }}>
              <span aria-hidden>⠿</span>
            </ActionIcon>
          )}
          <Text fw={600} size="sm">{title}</Text>
        </Group>
        {!readOnly && <Button size="xs" variant="subtle" color="red" onClick={onRemove} aria-label={`Remove ${title}`}>Remove</Button>}
      </Group>
      {children}
    </Card>
  );
}
