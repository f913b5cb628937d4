// A collection type's documents: the columns the user picks, search, filters, sort by clicking a
// column, page size and pages with the API's exact total, the locale, and each document's status.
// The list's state lives in the URL (a reload or the back button keeps it); columns per browser.
// It follows the project's live stream: others' changes appear without a reload.
import { Alert, Anchor, Button, Group, Pagination, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedCallback, useLocalStorage } from '@mantine/hooks';
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type SortingState, type Updater } from '@tanstack/react-table';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../components/PageState.tsx';
import { useDocuments, useLiveDocuments, type ListRow } from '../../features/content/api/get-documents.ts';
import { contentPath, localeSearch, type ContentEnv } from '../../features/content/components/content-env.ts';
import { hasDraftAndPublish, isLocalized, listableAttributes, typeLabel, type ContentType } from '../../features/content/components/content-model.ts';
import { AddFilter, ColumnPicker, FilterChips, TIMESTAMP_COLUMNS } from '../../features/content/components/ListControls.tsx';
import { PAGE_SIZES, readListState, writeListState, type ListState } from '../../features/content/components/list-query.ts';
import { LocaleSelect } from '../../features/content/components/LocaleSelect.tsx';
import { StatusBadge } from '../../features/content/components/StatusBadge.tsx';
import type { AttributeSchema } from '../../model/schema.ts';

const features = tableFeatures({ rowSortingFeature });
const helper = createColumnHelper<typeof features, ListRow>();
const NO_ROWS: ListRow[] = [];

function formatCell(attr: AttributeSchema, value: unknown): string {
  if (value === null || value === undefined || value === '') return '–';
  if (attr.type === 'datetime') return dayjs(String(value)).format('YYYY-MM-DD HH:mm');
  return String(value);
}

export function CollectionList({ env, type }: { env: ContentEnv; type: ContentType }) {
  const { slug, canEdit, locales, defaultLocale } = env;
  const [params, setParams] = useSearchParams();
  const state = readListState(params);
  const localized = isLocalized(type);
  const locale = localized ? state.locale ?? defaultLocale : null;
  const update = (patch: Partial<ListState>) => setParams(writeListState({ ...state, ...patch }));

  const attributes = useMemo(() => listableAttributes(type), [type]);
  const columnsAvailable = useMemo(() => [...attributes, ...TIMESTAMP_COLUMNS], [attributes]);
  const [stored, setStored] = useLocalStorage<string[] | null>({ key: `cms-content-columns:${slug}:${type.uid}`, defaultValue: null });
  const shown = (stored ?? attributes.slice(0, 3).map(([name]) => name)).filter((c) => columnsAvailable.some(([name]) => name === c));

  const request = { ...state, locale };
  // Another member's edit (or any API write) shows up without a reload.
  useLiveDocuments(slug, type.uid);
  const page = useDocuments(slug, type, request, shown);

  // Typing in the search box asks the API once the typing pauses.
  const [search, setSearch] = useState(state.q);
  const sendSearch = useDebouncedCallback((q: string) => update({ q, page: 1 }), 300);

  const sorting: SortingState = state.sort ? [{ id: state.sort.field, desc: state.sort.desc }] : [];
  const onSortingChange = (updater: Updater<SortingState>) => {
    const next = typeof updater === 'function' ? updater(sorting) : updater;
    update({ sort: next[0] ? { field: next[0].id, desc: next[0].desc } : null, page: 1 });
  };
  const columns = useMemo(() => {
    const defs = shown.map((name, index) => {
      const attr = columnsAvailable.find(([n]) => n === name)![1];
      return helper.accessor((row) => row[name], {
        id: name, header: name,
        cell: ({ row, getValue }) => index === 0
          ? <Anchor component={Link} to={`${contentPath(slug, type.uid, row.original.documentId)}${localeSearch(locale)}`}>{formatCell(attr, getValue()) === '–' ? row.original.documentId : formatCell(attr, getValue())}</Anchor>
          : formatCell(attr, getValue()),
      });
    });
    if (hasDraftAndPublish(type)) {
      defs.push(helper.accessor((row): unknown => row.status, {
        id: 'status', header: 'Status', enableSorting: false,
        cell: ({ row }) => (row.original.status ? <StatusBadge status={row.original.status} /> : null),
      }));
    }
    return defs;
  }, [shown.join(','), columnsAvailable, slug, type, locale]); // eslint-disable-line react-hooks/exhaustive-deps -- `shown` by value
  const table = useTable({
    features, columns, data: page.data?.rows ?? NO_ROWS, getRowId: (row) => row.documentId,
    state: { sorting }, onSortingChange, manualSorting: true, enableSortingRemoval: true, sortDescFirst: false,
  });

  // The range shown is the one of the rows shown (the previous page stays until the next arrives).
  const { total = 0, page: shownPage = 1, pageSize: shownSize = state.pageSize } = page.data ?? {};
  const first = total === 0 ? 0 : (shownPage - 1) * shownSize + 1;
  const last = Math.min(total, shownPage * shownSize);
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={2}>{typeLabel(type)}</Title>
        {canEdit && <Button component={Link} to={`${contentPath(slug, type.uid, 'new')}${localeSearch(locale)}`}>Create new entry</Button>}
      </Group>
      <Group align="flex-end" gap="sm">
        <TextInput
          label="Search" placeholder="Search text fields" w={260} value={search}
          onChange={(e) => { setSearch(e.currentTarget.value); sendSearch(e.currentTarget.value); }}
        />
        {localized && locale && <LocaleSelect locales={locales} value={locale} onChange={(code) => update({ locale: code, page: 1 })} />}
        <AddFilter attributes={attributes} onAdd={(f) => update({ filters: [...state.filters, f], page: 1 })} />
        <ColumnPicker available={columnsAvailable.map(([name]) => name)} value={shown} onChange={setStored} />
      </Group>
      <FilterChips filters={state.filters} onRemove={(i) => update({ filters: state.filters.filter((_, j) => j !== i), page: 1 })} />
      {page.isError && <Alert color="red" role="alert" title="Could not load the entries">{errorMessage(page.error)}</Alert>}
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label={`${typeLabel(type)} entries`} aria-busy={page.isFetching} striped highlightOnHover>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <Table.Th key={header.id} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                      {header.column.getCanSort()
                        ? (
                          <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={700} fz="sm">
                            <table.FlexRender header={header} /><span aria-hidden>{sorted === 'asc' ? ' ↑' : sorted === 'desc' ? ' ↓' : ''}</span>
                          </UnstyledButton>
                        )
                        : <table.FlexRender header={header} />}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id}>
                {row.getAllCells().map((cell) => <Table.Td key={cell.id}><table.FlexRender cell={cell} /></Table.Td>)}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {page.isPending && <Text c="dimmed" size="sm" role="status">Loading entries…</Text>}
      {page.data && total === 0 && (
        <Text c="dimmed" size="sm">{state.q || state.filters.length ? 'No entries match.' : 'No entries yet.'}</Text>
      )}
      <Group justify="space-between">
        <Text size="sm" role="status" data-testid="list-total">
          {!page.data ? '' : total === 0 ? '0 entries'
            : `${first.toLocaleString('en')}–${last.toLocaleString('en')} of ${total.toLocaleString('en')} ${total === 1 ? 'entry' : 'entries'}`}
        </Text>
        <Group gap="sm">
          <Select
            label="Entries per page" data={PAGE_SIZES.map(String)} value={String(state.pageSize)} w={150}
            onChange={(v) => v && update({ pageSize: Number(v), page: 1 })} allowDeselect={false}
          />
          <Pagination
            total={page.data?.pageCount ?? 0} value={state.page} onChange={(p) => update({ page: p })} aria-label="Pages"
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': { first: 'First page', last: 'Last page', next: 'Next page', previous: 'Previous page' }[control] })}
          />
        </Group>
      </Group>
    </Stack>
  );
}
