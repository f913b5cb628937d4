// The content-type builder: edits a working copy of the project's model (types, components,
// attributes, draft & publish and i18n), imports Strapi schema files, then shows what applying
// it will do and applies it in one declarative push. A refused change is shown next to the
// attribute it concerns and changes nothing.
import { Alert, Badge, Box, Button, Card, Grid, Group, List, NavLink, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { PageError, PageLoader } from '../components/PageState.tsx';
import { useProjectRole } from '../features/projects/api/get-project.ts';
import { useSchema } from '../features/schema/api/get-schema.ts';
import { AttributeModal, type AttributeTarget } from '../features/schema/components/AttributeModal.tsx';
import { EntryModal, type NewEntryKind } from '../features/schema/components/EntryModal.tsx';
import { ImportDropzone } from '../features/schema/components/ImportDropzone.tsx';
import { ReviewModal, type ModelPush } from '../features/schema/components/ReviewModal.tsx';
import { ApiError } from '../lib/api-error.ts';
import { changedEntries, removeAttribute, removeEntry, setAttribute, setEntry, trackRename } from '../model/edit.ts';
import { importFiles, mergeModels, type DroppedFile } from '../model/import.ts';
import {
  TYPE_LABELS, describeAttribute, displayNameOf, sectionOf, type ComponentSchema, type ContentTypeSchema, type Model, type StoredModel,
} from '../model/schema.ts';
import { EditableArea } from '../components/ViewOnly.tsx';

interface Refusal {
  message: string;
  /** `${uid}\n${attribute}` → message */
  attributes: Record<string, string>;
  /** uid → message (about the type itself) */
  entries: Record<string, string>;
  /** field errors that name no type */
  other: string[];
}

function refusalOf(error: ApiError): Refusal {
  const refusal: Refusal = { message: error.message, attributes: {}, entries: {}, other: [] };
  for (const e of error.details.errors ?? []) {
    const [section, uid, attributes, name] = e.path;
    if ((section === 'contentTypes' || section === 'components') && uid) {
      if (attributes === 'attributes' && name) refusal.attributes[`${uid}\n${name}`] ??= e.message;
      else refusal.entries[uid] ??= e.message;
    } else refusal.other.push(e.message);
  }
  return refusal;
}

export function ModelBuilderPage() {
  const { slug = '' } = useParams();
  const schema = useSchema(slug);
  const { canEdit } = useProjectRole(slug);
  if (schema.isPending) return <PageLoader label="Loading the model…" />;
  if (schema.isError) return <PageError error={schema.error} title="Could not load the model" />;
  // Remount on a new version: the working copy starts again from what is stored.
  return <Builder key={schema.data.version} slug={slug} stored={schema.data} readOnly={!canEdit} onReload={() => void schema.refetch()} />;
}

/** `onReload`: read the stored model again (a newer version remounts the builder). */
function Builder({ slug, stored, readOnly, onReload }: { slug: string; stored: StoredModel; readOnly: boolean; onReload(): void }) {
  const [working, setWorking] = useState<Model>({ contentTypes: stored.contentTypes, components: stored.components });
  const [renames, setRenames] = useState<Record<string, Record<string, string>>>({});
  const [selected, setSelected] = useState<string | null>(Object.keys(stored.contentTypes)[0] ?? Object.keys(stored.components)[0] ?? null);
  const [creating, setCreating] = useState<NewEntryKind | null>(null);
  const [editing, setEditing] = useState<AttributeTarget | null>(null);
  const [review, setReview] = useState<ModelPush | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [conflict, setConflict] = useState<string | null>(null);
  const [importProblems, setImportProblems] = useState<Array<{ path: string; message: string }>>([]);

  const changed = useMemo(() => changedEntries(stored, working), [stored, working]);
  const edit = (next: Model) => {
    setWorking(next);
    setRefusal(null);
  };

  const onRefused = useCallback((error: ApiError) => {
    setReview(null);
    if (error.status === 409) setConflict(error.message);
    else setRefusal(refusalOf(error));
  }, []);

  // The applied model is the project's model now (the builder remounts on its version).
  const onApplied = useCallback((result: StoredModel) => {
    setReview(null);
    notifications.show({ color: 'teal', message: `Model applied (version ${result.version})` });
  }, []);

  const onFiles = useCallback((files: DroppedFile[]) => {
    const result = importFiles(files);
    setImportProblems(result.problems);
    const types = Object.keys(result.model.contentTypes).length;
    const components = Object.keys(result.model.components).length;
    if (!types && !components) {
      if (!result.problems.length) setImportProblems([{ path: files.map((f) => f.path).join(', ') || 'the files', message: 'hold no content type or component' }]);
      return;
    }
    setWorking((w) => mergeModels(w, result.model));
    setRefusal(null);
    setSelected(Object.keys(result.model.contentTypes)[0] ?? Object.keys(result.model.components)[0]!);
    notifications.show({
      color: 'teal',
      message: `Imported ${types} content type${types === 1 ? '' : 's'} and ${components} component${components === 1 ? '' : 's'}${result.skipped.length ? ` (${result.skipped.length} other files skipped)` : ''}: review and apply to keep them`,
    });
  }, []);

  const entry = selected ? working[sectionOf(selected)][selected] : undefined;
  const groups: Array<{ label: string; kind: NewEntryKind; uids: string[] }> = [
    { label: 'Collection types', kind: 'collectionType', uids: Object.keys(working.contentTypes).filter((u) => working.contentTypes[u]!.kind !== 'singleType') },
    { label: 'Single types', kind: 'singleType', uids: Object.keys(working.contentTypes).filter((u) => working.contentTypes[u]!.kind === 'singleType') },
    { label: 'Components', kind: 'component', uids: Object.keys(working.components) },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Content-type builder</Title>
        <Text size="sm" c="dimmed">Model version {stored.version}</Text>
      </Group>
      {conflict && (
        <Alert color="yellow" role="alert" title="The model changed meanwhile">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{conflict}</Text>
            <Button size="xs" variant="default" onClick={onReload}>Reload the model (drops your unapplied changes)</Button>
          </Stack>
        </Alert>
      )}
      {refusal && (
        <Alert color="red" role="alert" title="The change was refused; nothing was changed">
          <Text size="sm">{refusal.message}</Text>
          {refusal.other.length > 0 && <List size="sm">{refusal.other.map((m, i) => <List.Item key={i}>{m}</List.Item>)}</List>}
        </Alert>
      )}
      {importProblems.length > 0 && (
        <Alert color="red" role="alert" title="Some files could not be imported" withCloseButton closeButtonLabel="Dismiss" onClose={() => setImportProblems([])}>
          <List size="sm">{importProblems.map((p, i) => <List.Item key={i}><code>{p.path}</code> {p.message}</List.Item>)}</List>
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stack component="nav" aria-label="Model" gap="md">
            {groups.map((g) => (
              <Box key={g.label}>
                <Group justify="space-between" mb={4}>
                  <Text fw={600} size="sm">{g.label}</Text>
                  <Button size="compact-xs" variant="light" disabled={readOnly} onClick={() => setCreating(g.kind)} aria-label={`New ${g.kind === 'component' ? 'component' : g.kind === 'singleType' ? 'single type' : 'collection type'}`}>+ New</Button>
                </Group>
                {g.uids.length === 0 && <Text size="xs" c="dimmed">None yet</Text>}
                {g.uids.map((uid) => (
                  <NavLink
                    key={uid} component="button" active={uid === selected} onClick={() => setSelected(uid)} aria-current={uid === selected ? 'true' : undefined}
                    label={displayNameOf(working, uid)}
                    rightSection={changed.has(uid) ? <Badge size="xs" variant="dot" color="yellow">changed</Badge> : refusal?.entries[uid] ? <Badge size="xs" variant="dot" color="red">error</Badge> : null}
                  />
                ))}
              </Box>
            ))}
            {!readOnly && <ImportDropzone onFiles={onFiles} />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <EditableArea readOnly={readOnly}>
            {!entry || !selected ? (
              <Card withBorder>
                <Stack align="flex-start">
                  <Title order={3} size="h4">No content type yet</Title>
                  <Text size="sm">Create a collection type (many entries, like articles) or a single type (one entry, like a home page), or import the schema of an existing Strapi project.</Text>
                  <Button onClick={() => setCreating('collectionType')}>Create collection type</Button>
                </Stack>
              </Card>
            ) : (
              <EntryEditor
                uid={selected} entry={entry} working={working} refusal={refusal}
                onChange={(e) => edit(setEntry(working, selected, e))}
                onDelete={() => {
                  edit(removeEntry(working, selected));
                  setSelected(null);
                }}
                onAddAttribute={() => setEditing({ uid: selected })}
                onEditAttribute={(name) => setEditing({ uid: selected, name })}
                onRemoveAttribute={(name) => edit(removeAttribute(working, selected, name))}
              />
            )}
          </EditableArea>
        </Grid.Col>
      </Grid>
      {!readOnly && <Card withBorder pos="sticky" bottom={0} style={{ zIndex: 2 }}>
        <Group justify="space-between">
          <Text size="sm" aria-live="polite">
            {changed.size ? `Not applied yet: ${[...changed].map((u) => (working[sectionOf(u)][u] ? displayNameOf(working, u) : `${displayNameOf(stored, u)} (deleted)`)).join(', ')}` : 'The model is applied: every change is live.'}
          </Text>
          <Group>
            <Button variant="default" disabled={!changed.size} onClick={() => {
              setWorking({ contentTypes: stored.contentTypes, components: stored.components });
              setRenames({});
              setRefusal(null);
            }}>Discard changes</Button>
            <Button disabled={!changed.size} onClick={() => setReview({ ...working, renames, expectedVersion: stored.version })}>Review and apply</Button>
          </Group>
        </Group>
      </Card>}
      <EntryModal model={working} kind={creating} onClose={() => setCreating(null)} onCreate={(uid, e) => {
        edit(setEntry(working, uid, e));
        setSelected(uid);
        setCreating(null);
      }} />
      <AttributeModal model={working} target={editing} onClose={() => setEditing(null)} onSave={(name, attr, previousName) => {
        const uid = editing!.uid;
        if (previousName !== undefined && previousName !== name && working[sectionOf(uid)][uid]?.attributes[previousName]?.type === attr.type) {
          setRenames((r) => trackRename(r, stored, uid, previousName, name));
        }
        edit(setAttribute(working, uid, name, attr, previousName));
        setEditing(null);
      }} />
      <ReviewModal slug={slug} push={review} onClose={() => setReview(null)} onApplied={onApplied} onRefused={onRefused} />
    </Stack>
  );
}

function EntryEditor({ uid, entry, working, refusal, onChange, onDelete, onAddAttribute, onEditAttribute, onRemoveAttribute }: {
  uid: string; entry: ContentTypeSchema | ComponentSchema; working: Model; refusal: Refusal | null;
  onChange(entry: ContentTypeSchema | ComponentSchema): void; onDelete(): void; onAddAttribute(): void; onEditAttribute(name: string): void; onRemoveAttribute(name: string): void;
}) {
  const isType = sectionOf(uid) === 'contentTypes';
  const ct = entry as ContentTypeSchema;
  const name = displayNameOf(working, uid);
  const entryError = refusal?.entries[uid];
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={3}>{name}</Title>
          <Group gap="xs">
            <Text size="sm" ff="monospace">{uid}</Text>
            <Badge variant="light">{isType ? (ct.kind === 'singleType' ? 'Single type' : 'Collection type') : 'Component'}</Badge>
            {isType && <Text size="sm" c="dimmed">REST: /api/{ct.kind === 'singleType' ? ct.info.singularName : ct.info.pluralName}</Text>}
          </Group>
        </Stack>
        <Button color="red" variant="light" onClick={onDelete}>{isType ? 'Delete this type' : 'Delete this component'}</Button>
      </Group>
      {entryError && <Alert color="red" role="alert">{entryError}</Alert>}
      <Card withBorder>
        <Group align="flex-end" gap="xl">
          <TextInput label="Display name" value={entry.info.displayName ?? ''} onChange={(e) => onChange({ ...entry, info: { ...entry.info, displayName: e.currentTarget.value } } as typeof entry)} />
          {isType && (
            <>
              <Switch
                label="Draft & publish" checked={ct.options?.draftAndPublish !== false}
                onChange={(e) => onChange({ ...ct, options: { ...(ct.options ?? {}), draftAndPublish: e.currentTarget.checked } })}
              />
              <Switch
                label="Localized (i18n)" checked={ct.pluginOptions?.i18n?.localized === true}
                onChange={(e) => onChange({ ...ct, pluginOptions: { ...(ct.pluginOptions ?? {}), i18n: { ...(ct.pluginOptions?.i18n ?? {}), localized: e.currentTarget.checked } } })}
              />
            </>
          )}
        </Group>
      </Card>
      <Table aria-label={`Attributes of ${name}`} verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th>Options</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {Object.keys(entry.attributes).length === 0 && (
            <Table.Tr><Table.Td colSpan={4}><Text size="sm" c="dimmed">No attribute yet: add the first one.</Text></Table.Td></Table.Tr>
          )}
          {Object.entries(entry.attributes).flatMap(([attrName, attr]) => {
            const error = refusal?.attributes[`${uid}\n${attrName}`];
            const rows = [
              <Table.Tr key={attrName} data-attribute={attrName} bg={error ? 'var(--mantine-color-red-0)' : undefined}>
                <Table.Td ff="monospace">{attrName}</Table.Td>
                <Table.Td>{TYPE_LABELS[attr.type] ?? attr.type}</Table.Td>
                <Table.Td><Text size="sm">{describeAttribute(working, attr)}</Text></Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-sm" variant="default" onClick={() => onEditAttribute(attrName)} aria-label={`Edit ${attrName}`}>Edit</Button>
                    <Button size="compact-sm" variant="light" color="red" onClick={() => onRemoveAttribute(attrName)} aria-label={`Delete ${attrName}`}>Delete</Button>
                  </Group>
                </Table.Td>
              </Table.Tr>,
            ];
            if (error) {
              rows.push(
                <Table.Tr key={`${attrName}-error`} bg="var(--mantine-color-red-0)">
                  <Table.Td colSpan={4}><Text size="sm" c="red.9" role="alert" data-testid={`error-${attrName}`}>{error}</Text></Table.Td>
                </Table.Tr>,
              );
            }
            return rows;
          })}
        </Table.Tbody>
      </Table>
      <Group><Button variant="light" onClick={onAddAttribute}>Add attribute</Button></Group>
    </Stack>
  );
}
