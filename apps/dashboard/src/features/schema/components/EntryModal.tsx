// Creates a collection type, a single type or a component in the working copy: names derived
// from the display name as Strapi's builder derives them, editable before creating.
import { Autocomplete, Button, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { kebabName, pluralOf, type ComponentSchema, type ContentTypeSchema, type Model } from '../../../model/schema.ts';

export type NewEntryKind = 'collectionType' | 'singleType' | 'component';

const TITLES: Record<NewEntryKind, string> = { collectionType: 'Create collection type', singleType: 'Create single type', component: 'Create component' };
const KEBAB = /^[a-z][a-z0-9-]*$/;

export function EntryModal({ model, kind, onClose, onCreate }: {
  model: Model; kind: NewEntryKind | null; onClose(): void; onCreate(uid: string, entry: ContentTypeSchema | ComponentSchema): void;
}) {
  return (
    <Modal opened={kind !== null} onClose={onClose} title={kind ? TITLES[kind] : ''}>
      {kind && <EntryForm model={model} kind={kind} onClose={onClose} onCreate={onCreate} />}
    </Modal>
  );
}

function EntryForm({ model, kind, onClose, onCreate }: { model: Model; kind: NewEntryKind; onClose(): void; onCreate(uid: string, entry: ContentTypeSchema | ComponentSchema): void }) {
  const isComponent = kind === 'component';
  const form = useForm({
    initialValues: { displayName: '', singularName: '', pluralName: '', category: '', draftAndPublish: true, localized: false, touched: false },
    validate: {
      displayName: (v) => (v.trim() ? null : 'Enter a display name'),
      singularName: (v, values) => {
        if (!KEBAB.test(v)) return 'Lowercase letters, digits and -, starting with a letter';
        if (isComponent) return model.components[`${values.category}.${v}`] ? `${values.category}.${v} already exists` : null;
        return model.contentTypes[`api::${v}.${v}`] ? `A type named ${v} already exists` : null;
      },
      pluralName: (v, values) => isComponent ? null : !KEBAB.test(v) ? 'Lowercase letters, digits and -, starting with a letter'
        : v === values.singularName ? 'Must differ from the singular name' : null,
      category: (v) => (isComponent && !KEBAB.test(v) ? 'Lowercase letters, digits and -, starting with a letter' : null),
    },
  });
  const onDisplayName = (value: string) => {
    const singular = kebabName(value);
    form.setValues({ displayName: value, ...(form.values.touched ? {} : { singularName: singular, pluralName: singular ? pluralOf(singular) : '' }) });
  };
  const categories = [...new Set(Object.keys(model.components).map((uid) => uid.split('.')[0]!))];
  const submit = form.onSubmit((v) => {
    const displayName = v.displayName.trim();
    if (isComponent) {
      onCreate(`${v.category}.${v.singularName}`, {
        collectionName: `components_${v.category}_${pluralOf(v.singularName)}`.replace(/-/g, '_'),
        info: { displayName },
        attributes: {},
      });
      return;
    }
    const entry: ContentTypeSchema = {
      kind: kind as ContentTypeSchema['kind'],
      collectionName: v.pluralName.replace(/-/g, '_'),
      info: { singularName: v.singularName, pluralName: v.pluralName, displayName },
      options: { draftAndPublish: v.draftAndPublish },
      attributes: {},
    };
    if (v.localized) entry.pluginOptions = { i18n: { localized: true } };
    onCreate(`api::${v.singularName}.${v.singularName}`, entry);
  });
  return (
    <form onSubmit={submit} aria-label={TITLES[kind]}>
      <Stack>
        <TextInput label="Display name" required data-autofocus value={form.values.displayName} onChange={(e) => onDisplayName(e.currentTarget.value)} error={form.errors.displayName} />
        {isComponent ? (
          <SimpleGrid cols={2}>
            <Autocomplete label="Category" required data={categories} {...form.getInputProps('category')} />
            <TextInput label="Name" required {...form.getInputProps('singularName')} onChange={(e) => form.setValues({ singularName: e.currentTarget.value, touched: true })} />
          </SimpleGrid>
        ) : (
          <SimpleGrid cols={2}>
            <TextInput label="Singular name" required {...form.getInputProps('singularName')} onChange={(e) => form.setValues({ singularName: e.currentTarget.value, touched: true })} />
            <TextInput label="Plural name" required {...form.getInputProps('pluralName')} onChange={(e) => form.setValues({ pluralName: e.currentTarget.value, touched: true })} />
          </SimpleGrid>
        )}
        <Text size="sm" c="dimmed" data-testid="entry-uid">
          {isComponent
            ? `uid: ${form.values.category || 'category'}.${form.values.singularName || 'name'}`
            : `uid: api::${form.values.singularName || 'name'}.${form.values.singularName || 'name'} · REST: /api/${kind === 'singleType' ? form.values.singularName : form.values.pluralName}`}
        </Text>
        {!isComponent && (
          <>
            <Switch label="Draft & publish" description="Entries are drafts until published" {...form.getInputProps('draftAndPublish', { type: 'checkbox' })} />
            <Switch label="Localized (i18n)" description="Entries have a version per locale" {...form.getInputProps('localized', { type: 'checkbox' })} />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit">Create</Button>
        </Group>
      </Stack>
    </form>
  );
}
