// The list's controls besides the grid: which columns it shows, and its filters (any listable
// attribute, with the API's operators).
import { Button, Checkbox, CloseButton, Group, Popover, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { AttributeSchema } from '../../../model/schema.ts';
import {
  LIST_OPERATORS, OPERATOR_LABELS, VALUELESS_OPERATORS, operatorsFor, type FilterCondition, type Operator,
} from './list-query.ts';

/** The columns a list can show: its listable attributes and the timestamps. */
export const TIMESTAMP_COLUMNS: Array<[string, AttributeSchema]> = [['createdAt', { type: 'datetime' }], ['updatedAt', { type: 'datetime' }]];

export function ColumnPicker({ available, value, onChange }: { available: string[]; value: string[]; onChange(columns: string[]): void }) {
  return (
    <Popover position="bottom-end" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Button variant="default">Columns</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group label="Columns shown" value={value} onChange={(next) => onChange(available.filter((c) => next.includes(c)))}>
          <Stack gap={6} mt="xs">
            {available.map((name) => <Checkbox key={name} value={name} label={name} />)}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}

export const describeFilter = (f: FilterCondition) => `${f.field} ${OPERATOR_LABELS[f.operator]}${VALUELESS_OPERATORS.has(f.operator) ? '' : ` ${f.value}`}`;

export function FilterChips({ filters, onRemove }: { filters: FilterCondition[]; onRemove(index: number): void }) {
  if (!filters.length) return null;
  return (
    <Group gap="xs" role="list" aria-label="Filters applied">
      {filters.map((f, i) => (
        <Group key={i} role="listitem" gap={4} pl="sm" pr={4} py={2} style={{ border: '1px solid var(--mantine-color-gray-4)', borderRadius: 16 }}>
          <Text size="sm">{describeFilter(f)}</Text>
          <CloseButton size="sm" aria-label={`Remove filter ${describeFilter(f)}`} onClick={() => onRemove(i)} />
        </Group>
      ))}
    </Group>
  );
}

export function AddFilter({ attributes, onAdd }: { attributes: Array<[string, AttributeSchema]>; onAdd(filter: FilterCondition): void }) {
  const [opened, setOpened] = useState(false);
  const [field, setField] = useState<string | null>(attributes[0]?.[0] ?? null);
  const attr = attributes.find(([name]) => name === field)?.[1];
  const operators = attr ? operatorsFor(attr) : [];
  const [operator, setOperator] = useState<Operator>('$eq');
  const [value, setValue] = useState('');
  const op = operators.includes(operator) ? operator : operators[0] ?? '$eq';
  const needsValue = !VALUELESS_OPERATORS.has(op);
  const choices = attr?.type === 'boolean' ? ['true', 'false'] : attr?.type === 'enumeration' && !LIST_OPERATORS.has(op) ? attr.enum ?? [] : null;
  const apply = () => {
    if (!field || (needsValue && value.trim() === '')) return;
    onAdd({ field, operator: op, value: needsValue ? value.trim() : '' });
    setValue('');
    setOpened(false);
  };
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Button variant="default" onClick={() => setOpened((o) => !o)}>Add filter</Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm" w={280}>
          <Select label="Field" data={attributes.map(([name]) => name)} value={field} onChange={setField} allowDeselect={false} comboboxProps={{ withinPortal: false }} />
          <Select
            label="Condition" data={operators.map((o) => ({ value: o, label: OPERATOR_LABELS[o] }))} value={op}
            onChange={(v) => v && setOperator(v as Operator)} allowDeselect={false} comboboxProps={{ withinPortal: false }}
          />
          {needsValue && (choices
            ? <Select label="Value" data={choices} value={value || null} onChange={(v) => setValue(v ?? '')} comboboxProps={{ withinPortal: false }} />
            : (
              <TextInput
                label="Value" value={value} onChange={(e) => setValue(e.currentTarget.value)}
                description={LIST_OPERATORS.has(op) ? (op === '$between' ? 'Two values, separated by a comma' : 'Values separated by commas') : undefined}
                onKeyDown={(e) => e.key === 'Enter' && apply()}
              />
            ))}
          <Button onClick={apply} disabled={!field || (needsValue && value.trim() === '')}>Apply filter</Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
