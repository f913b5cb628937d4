// The entries a relation links to, in order. A to-many list is reordered by dragging an entry's
// handle, by keyboard on the handle (Space, arrows, Space: dnd-kit's keyboard sensor), or with the
// Move up / Move down buttons.
import {
  closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent, type UniqueIdentifier,
} from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Button, Group, Paper, Text } from '@mantine/core';
import { useRef } from 'react';
import type { RelationItem } from './relation-body.ts';

const STATUS: Record<NonNullable<RelationItem['status']>, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'blue' },
  published: { label: 'Published', color: 'teal' },
  modified: { label: 'Modified', color: 'violet' },
};

export function SortableRelationList({ label, items, sortable, readOnly, onChange }: {
  /** the field's label (names the list) */
  label: string;
  items: RelationItem[];
  sortable: boolean;
  readOnly: boolean;
  onChange(items: RelationItem[]): void;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const moved = useRef(false);
  const move = (from: number, to: number) => {
    if (to >= 0 && to < items.length && from !== to) onChange(arrayMove(items, from, to));
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    move(items.findIndex((i) => i.documentId === active.id), items.findIndex((i) => i.documentId === over.id));
  };
  if (items.length === 0) return null;
  const canSort = sortable && !readOnly && items.length > 1;
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements: announcements(items, moved), screenReaderInstructions: INSTRUCTIONS }}>
      <SortableContext items={items.map((i) => i.documentId)} strategy={verticalListSortingStrategy}>
        <ul aria-label={`${label}: linked entries`} style={{ listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {items.map((item, index) => (
            <Row
              key={item.documentId} item={item} sortable={canSort} readOnly={readOnly}
              first={index === 0} last={index === items.length - 1}
              onMove={(delta) => move(index, index + delta)}
              onRemove={() => onChange(items.filter((_, i) => i !== index))}
            />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

const INSTRUCTIONS = {
  draggable: 'To move an entry, press Space, then the arrow keys, then Space again to drop it (Escape cancels). The Move up and Move down buttons do the same.',
};

/**
 * What screen readers hear while an entry is moved: its label and position, never its documentId.
 * `moved` remembers whether it left its place: the drag starts "over" itself, which is no news.
 */
function announcements(items: RelationItem[], moved: { current: boolean }): Announcements {
  const label = (id: UniqueIdentifier) => items.find((i) => i.documentId === id)?.label ?? String(id);
  const position = (id: UniqueIdentifier | undefined) => `position ${items.findIndex((i) => i.documentId === id) + 1} of ${items.length}`;
  return {
    onDragStart: ({ active }) => {
      moved.current = false;
      return `Picked up ${label(active.id)}, at ${position(active.id)}.`;
    },
    onDragOver: ({ active, over }) => {
      if (over?.id === active.id && !moved.current) return undefined;
      moved.current = true;
      return over ? `${label(active.id)} moved to ${position(over.id)}.` : `${label(active.id)} is outside the list.`;
    },
    onDragEnd: ({ active, over }) => (over ? `${label(active.id)} dropped at ${position(over.id)}.` : `${label(active.id)} dropped where it was.`),
    onDragCancel: ({ active }) => `Moving ${label(active.id)} cancelled: it is back at ${position(active.id)}.`,
  };
}

function Row({ item, sortable, readOnly, first, last, onMove, onRemove }: {
  item: RelationItem; sortable: boolean; readOnly: boolean; first: boolean; last: boolean; onMove(delta: -1 | 1): void; onRemove(): void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.documentId, disabled: !sortable });
  const status = item.status ? STATUS[item.status] : null;
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition, position: 'relative', zIndex: isDragging ? 1 : undefined }}>
      <Paper withBorder px="sm" py={6} radius="md">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            {sortable && (
              <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={`Reorder ${item.label}`} title="Drag to reorder"
                {...attributes} {...listeners} style={{ cursor: 'grab', touchAction: 'none' }}>
                <span aria-hidden>⠿</span>
              </ActionIcon>
            )}
            <Text size="sm" truncate>{item.label}</Text>
            {/* Outline in the darkest shade: above 4.5:1 contrast (as the content list's badges). */}
            {status && <Badge size="sm" variant="outline" color={`${status.color}.9`}>{status.label}</Badge>}
          </Group>
          {!readOnly && (
            <Group gap={4} wrap="nowrap">
              {sortable && (
                <>
                  <ActionIcon variant="subtle" color="gray" aria-label={`Move ${item.label} up`} title="Move up" disabled={first} onClick={() => onMove(-1)}>
                    <span aria-hidden>↑</span>
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="gray" aria-label={`Move ${item.label} down`} title="Move down" disabled={last} onClick={() => onMove(1)}>
                    <span aria-hidden>↓</span>
                  </ActionIcon>
                </>
              )}
              <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${item.label}`} onClick={onRemove}>Remove</Button>
            </Group>
          )}
        </Group>
      </Paper>
    </li>
  );
}
