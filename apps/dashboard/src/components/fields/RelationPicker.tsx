// A relation attribute: the linked entries (reorderable when there can be several) and a search
// of the target type as the user types, through the project's content API (drafts included, in
// the document's locale). The form writes the change with `relationBody`.
import { Combobox, Group, Loader, Stack, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { useRelationSearch } from '../../features/content/api/search-relations.ts';
import { useSchema } from '../../features/schema/api/get-schema.ts';
import { FieldShell, describedBy, useFieldIds } from './FieldShell.tsx';
import type { RelationItem } from './relation-body.ts';
import { relationTarget } from './relation-target.ts';
import { SortableRelationList } from './SortableRelationList.tsx';

export { relationBody, type RelationItem } from './relation-body.ts';

const SEARCH_DELAY_MS = 250;

export function RelationPicker(props: {
  slug: string;
  label: string;
  targetUid: string;
  multiple: boolean;
  locale?: string;
  value: RelationItem[];
  onChange(items: RelationItem[]): void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const { slug, label, targetUid, multiple, locale, value, onChange, error, required, disabled } = props;
  const ids = useFieldIds();
  const schema = useSchema(slug);
  const target = relationTarget(schema.data, targetUid);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search, SEARCH_DELAY_MS);
  const [opened, setOpened] = useState(false);
  const combobox = useCombobox({
    onDropdownOpen: () => setOpened(true),
    onDropdownClose: () => {
      setOpened(false);
      combobox.resetSelectedOption();
    },
  });

  const results = useRelationSearch({ slug, targetUid, locale, term }, target, opened);
  const options = (results.data ?? []).filter((r) => !value.some((v) => v.documentId === r.documentId));
  // What was offered, by documentId: an option picked while the next search replaces the list
  // (typing on, the debounce firing) is still the entry that was shown and clicked.
  const offered = useRef(new Map<string, RelationItem>());
  for (const item of options) offered.current.set(item.documentId, item);

  const pick = (documentId: string) => {
    const item = offered.current.get(documentId);
    if (!item) return;
    onChange(multiple ? [...value, item] : [item]);
    setSearch('');
    combobox.closeDropdown();
  };

  const noun = target?.displayName ?? 'entry';
  const searching = results.isFetching || search.trim() !== term.trim();
  return (
    <FieldShell ids={ids} label={label} error={error} required={required}>
      <Stack gap={6}>
        <SortableRelationList label={label} items={value} sortable={multiple} readOnly={!!disabled} onChange={onChange} />
        {disabled && value.length === 0 && <Text size="sm" c="dimmed">None</Text>}
        {!disabled && (
          <Combobox store={combobox} onOptionSubmit={pick} withinPortal>
            <Combobox.Target withExpandedAttribute>
              <TextInput
                value={search}
                placeholder={multiple ? `Add ${article(noun)} ${noun}…` : value.length ? `Replace with another ${noun}…` : `Choose ${article(noun)} ${noun}…`}
                aria-labelledby={ids.label}
                aria-describedby={describedBy(ids, { error })}
                aria-invalid={error ? true : undefined}
                aria-required={required || undefined}
                rightSection={searching && opened ? <Loader size="xs" aria-hidden /> : null}
                onChange={(e) => {
                  setSearch(e.currentTarget.value);
                  combobox.openDropdown();
                  combobox.updateSelectedOptionIndex();
                }}
                // Enter picks an option (handled by the combobox), never submits the document's form.
                onKeyDown={(e) => { if (e.key === 'Enter') e.preventDefault(); }}
                onClick={() => combobox.openDropdown()}
                onFocus={() => combobox.openDropdown()}
                onBlur={() => combobox.closeDropdown()}
                autoComplete="off"
              />
            </Combobox.Target>
            <Combobox.Dropdown>
              <Combobox.Options aria-label={`${label}: matching entries`}>
                {target === null && <Combobox.Empty>{schema.isPending ? 'Loading…' : `Unknown target ${targetUid}`}</Combobox.Empty>}
                {results.isError && <Combobox.Empty>Could not search: {results.error.message}</Combobox.Empty>}
                {target && !results.isError && options.length === 0 && (
                  <Combobox.Empty>{searching || results.isPending ? 'Searching…' : `No matching ${noun} entries`}</Combobox.Empty>
                )}
                {options.map((item) => (
                  <Combobox.Option value={item.documentId} key={item.documentId}>
                    <Group gap="xs" wrap="nowrap"><Text size="sm" truncate>{item.label}</Text></Group>
                  </Combobox.Option>
                ))}
              </Combobox.Options>
            </Combobox.Dropdown>
          </Combobox>
        )}
      </Stack>
    </FieldShell>
  );
}

const article = (noun: string) => (/^[aeiou]/i.test(noun) ? 'an' : 'a');
