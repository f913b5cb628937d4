// Adds or edits one attribute: its name, type and every option of that type the contract knows.
import { Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { RELATION_SHAPES, relationAttribute, relationShapeOf, type RelationShape } from '../../../model/edit.ts';
import {
  ATTRIBUTE_GROUPS, DEFAULT_TYPES, NUMBER_TYPES, TEXT_TYPES, UNIQUE_TYPES, USER_TARGET, displayNameOf, sectionOf,
  type AttributeSchema, type AttributeType, type Model,
} from '../../../model/schema.ts';

const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const MEDIA_TYPES = [{ value: 'images', label: 'Images' }, { value: 'files', label: 'Files' }, { value: 'videos', label: 'Videos' }, { value: 'audios', label: 'Audios' }];
/** The options this form edits; anything else an attribute carries is kept as it is. */
const MANAGED = ['type', 'required', 'unique', 'private', 'default', 'minLength', 'maxLength', 'min', 'max', 'regex', 'enum', 'targetField', 'multiple',
  'allowedTypes', 'relation', 'target', 'inversedBy', 'mappedBy', 'component', 'repeatable', 'components'];

interface Values {
  name: string;
  type: AttributeType | '';
  required: boolean;
  unique: boolean;
  private: boolean;
  localized: boolean;
  minLength: number | string;
  maxLength: number | string;
  min: number | string;
  max: number | string;
  regex: string;
  defaultValue: string;
  enumValues: string[];
  targetField: string;
  multiple: boolean;
  allowedTypes: string[];
  shape: RelationShape;
  target: string;
  inverse: string;
  component: string;
  repeatable: boolean;
  components: string[];
}

export interface AttributeTarget {
  uid: string;
  /** the attribute edited (absent: adding one) */
  name?: string;
}

export function AttributeModal({ model, target, onClose, onSave }: {
  model: Model; target: AttributeTarget | null; onClose(): void; onSave(name: string, attr: AttributeSchema, previousName?: string): void;
}) {
  return (
    <Modal opened={target !== null} onClose={onClose} title={target?.name ? `Edit ${target.name}` : 'Add attribute'} size="lg">
      {target && <AttributeForm model={model} target={target} onClose={onClose} onSave={onSave} />}
    </Modal>
  );
}

function initialValues(model: Model, uid: string, attr: AttributeSchema | undefined, name: string): Values {
  const { shape, inverse } = attr?.type === 'relation' ? relationShapeOf(attr) : { shape: 'manyToOne' as RelationShape, inverse: '' };
  const owner = model[sectionOf(uid)][uid];
  const typeLocalized = sectionOf(uid) === 'contentTypes' && (owner as { pluginOptions?: { i18n?: { localized?: boolean } } })?.pluginOptions?.i18n?.localized === true;
  const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
  return {
    name,
    type: attr?.type ?? '',
    required: attr?.required ?? false,
    unique: attr?.unique ?? false,
    private: attr?.private ?? false,
    localized: attr?.pluginOptions?.i18n?.localized ?? typeLocalized,
    minLength: attr?.minLength ?? '',
    maxLength: attr?.maxLength ?? '',
    min: attr?.min ?? '',
    max: attr?.max ?? '',
    regex: attr?.regex ?? '',
    defaultValue: str(attr?.default),
    enumValues: attr?.enum ?? [],
    targetField: attr?.targetField ?? '',
    multiple: attr?.multiple ?? false,
    allowedTypes: attr?.allowedTypes ?? [],
    shape,
    target: attr?.target ?? '',
    inverse,
    component: attr?.component ?? '',
    repeatable: attr?.repeatable ?? false,
    components: attr?.components ?? [],
  };
}

function parseDefault(type: AttributeType, text: string): unknown {
  if (text === '') return undefined;
  if (NUMBER_TYPES.has(type)) return type === 'biginteger' || type === 'decimal' ? text : Number(text);
  if (type === 'boolean') return text === 'true';
  if (type === 'json') return JSON.parse(text) as unknown;
  return text;
}

function AttributeForm({ model, target, onClose, onSave }: { model: Model; target: AttributeTarget; onClose(): void; onSave(name: string, attr: AttributeSchema, previousName?: string): void }) {
  const owner = model[sectionOf(target.uid)][target.uid]!;
  const original = target.name ? owner.attributes[target.name] : undefined;
  const inComponent = sectionOf(target.uid) === 'components';
  const typeLocalized = !inComponent && (owner as { pluginOptions?: { i18n?: { localized?: boolean } } }).pluginOptions?.i18n?.localized === true;
  const form = useForm<Values>({
    initialValues: initialValues(model, target.uid, original, target.name ?? ''),
    validate: {
      name: (v) => !NAME.test(v) ? 'Start with a letter; use letters, digits and _ only'
        : v !== target.name && owner.attributes[v] ? `${v} already exists on this type` : null,
      type: (v) => (v ? null : 'Choose a type'),
      enumValues: (v, values) => (values.type === 'enumeration' && v.length === 0 ? 'Add at least one value' : null),
      target: (v, values) => (values.type === 'relation' && !v ? 'Choose the related type' : null),
      inverse: (v, values) => {
        if (values.type !== 'relation' || !RELATION_SHAPES.find((s) => s.value === values.shape)?.bidirectional) return null;
        if (!NAME.test(v)) return 'Name the field on the other side (letters, digits and _)';
        const other = model.contentTypes[values.target]?.attributes[v];
        const isOwnCounterpart = original && relationShapeOf(original).inverse === v && original.target === values.target;
        return other && !isOwnCounterpart ? `${v} already exists on ${displayNameOf(model, values.target)}` : null;
      },
      component: (v, values) => (values.type === 'component' && !v ? 'Choose a component' : null),
      components: (v, values) => (values.type === 'dynamiczone' && v.length === 0 ? 'Choose at least one component' : null),
      defaultValue: (v, values) => {
        if (values.type !== 'json' || v === '') return null;
        try {
          JSON.parse(v);
          return null;
        } catch {
          return 'Enter valid JSON';
        }
      },
    },
  });
  const v = form.values;
  const type = v.type as AttributeType;

  const submit = form.onSubmit((values) => {
    const kept = Object.fromEntries(Object.entries(original ?? {}).filter(([k]) => !MANAGED.includes(k)));
    let attr: AttributeSchema = { ...kept, type };
    const num = (x: number | string) => (x === '' ? undefined : Number(x));
    if (type === 'relation') {
      attr = relationAttribute(values.shape, values.target, values.inverse, kept);
    } else {
      if (values.required) attr.required = true;
      if (UNIQUE_TYPES.has(type) && values.unique) attr.unique = true;
      if (TEXT_TYPES.has(type)) {
        if (num(values.minLength) !== undefined) attr.minLength = num(values.minLength);
        if (num(values.maxLength) !== undefined) attr.maxLength = num(values.maxLength);
      }
      if (['string', 'text', 'uid'].includes(type) && values.regex) attr.regex = values.regex;
      if (NUMBER_TYPES.has(type) || type === 'component' || type === 'dynamiczone') {
        // Big integers and decimals keep their bounds as text (exact beyond a double).
        const bound = (x: number | string) => (type === 'biginteger' || type === 'decimal' ? String(x) : Number(x));
        if (values.min !== '') attr.min = bound(values.min);
        if (values.max !== '') attr.max = bound(values.max);
      }
      if (type === 'enumeration') attr.enum = values.enumValues;
      if (type === 'uid' && values.targetField) attr.targetField = values.targetField;
      if (type === 'media') {
        attr.multiple = values.multiple;
        if (values.allowedTypes.length) attr.allowedTypes = values.allowedTypes;
      }
      if (type === 'component') {
        attr.component = values.component;
        attr.repeatable = values.repeatable;
      }
      if (type === 'dynamiczone') attr.components = values.components;
      if (DEFAULT_TYPES.has(type)) {
        const d = parseDefault(type, values.defaultValue);
        if (d !== undefined) attr.default = d;
      }
    }
    if (values.private && type !== 'relation') attr.private = true;
    if (typeLocalized && type !== 'relation') {
      attr.pluginOptions = { ...(original?.pluginOptions ?? {}), i18n: { localized: values.localized } };
    }
    onSave(values.name, attr, target.name);
  });

  const contentTypeTargets = [
    ...Object.keys(model.contentTypes).map((uid) => ({ value: uid, label: displayNameOf(model, uid) })),
    { value: USER_TARGET, label: displayNameOf(model, USER_TARGET) },
  ];
  const shapes = RELATION_SHAPES.filter((s) => !(s.bidirectional && (inComponent || v.target === USER_TARGET)));
  const componentOptions = Object.keys(model.components).map((uid) => ({ value: uid, label: `${displayNameOf(model, uid)} (${uid})` }));
  const stringFields = Object.entries(owner.attributes).filter(([n, a]) => n !== target.name && (a.type === 'string' || a.type === 'text')).map(([n]) => n);
  const bidirectional = RELATION_SHAPES.find((s) => s.value === v.shape)?.bidirectional ?? false;

  return (
    <form onSubmit={submit} aria-label="Attribute">
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" description="The field's name in the API" required data-autofocus {...form.getInputProps('name')} />
          <Select label="Type" required data={ATTRIBUTE_GROUPS} searchable allowDeselect={false} {...form.getInputProps('type')} />
        </SimpleGrid>
        {type === 'relation' && (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select label="Related type" required data={contentTypeTargets} allowDeselect={false} {...form.getInputProps('target')} />
              <Select label="Relation" required data={shapes.map((s) => ({ value: s.value, label: s.label }))} allowDeselect={false} {...form.getInputProps('shape')} />
            </SimpleGrid>
            {bidirectional && (
              <TextInput label={`Field on ${v.target ? displayNameOf(model, v.target) : 'the related type'}`} description="The inverse side, added to the related type" required {...form.getInputProps('inverse')} />
            )}
          </>
        )}
        {type === 'component' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select label="Component" required data={componentOptions} nothingFoundMessage="Create a component first" allowDeselect={false} {...form.getInputProps('component')} />
            <Switch mt="xl" label="Repeatable" {...form.getInputProps('repeatable', { type: 'checkbox' })} />
          </SimpleGrid>
        )}
        {type === 'dynamiczone' && (
          <MultiSelect label="Allowed components" required data={componentOptions} {...form.getInputProps('components')} />
        )}
        {type === 'enumeration' && (
          <TagsInput label="Values" description="Press Enter after each value" required {...form.getInputProps('enumValues')} />
        )}
        {type === 'uid' && (
          <Select label="Generated from" description="The field a UID is proposed from" data={stringFields} clearable {...form.getInputProps('targetField')} />
        )}
        {type === 'media' && (
          <>
            <Switch label="Multiple files" {...form.getInputProps('multiple', { type: 'checkbox' })} />
            <Checkbox.Group label="Allowed file types" description="None checked: any type" {...form.getInputProps('allowedTypes')}>
              <Group mt="xs">{MEDIA_TYPES.map((m) => <Checkbox key={m.value} value={m.value} label={m.label} />)}</Group>
            </Checkbox.Group>
          </>
        )}
        {TEXT_TYPES.has(type) && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput label="Minimum length" min={0} allowDecimal={false} {...form.getInputProps('minLength')} />
            <NumberInput label="Maximum length" min={0} allowDecimal={false} {...form.getInputProps('maxLength')} />
          </SimpleGrid>
        )}
        {['string', 'text', 'uid'].includes(type) && <TextInput label="Regular expression" description="Values must match it" {...form.getInputProps('regex')} />}
        {(NUMBER_TYPES.has(type) || type === 'dynamiczone' || (type === 'component' && v.repeatable)) && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput label={NUMBER_TYPES.has(type) ? 'Minimum value' : 'Minimum items'} allowDecimal={type === 'float' || type === 'decimal'} {...form.getInputProps('min')} />
            <NumberInput label={NUMBER_TYPES.has(type) ? 'Maximum value' : 'Maximum items'} allowDecimal={type === 'float' || type === 'decimal'} {...form.getInputProps('max')} />
          </SimpleGrid>
        )}
        {DEFAULT_TYPES.has(type) && type !== 'json' && type !== 'boolean' && type !== 'enumeration' && (
          <TextInput label="Default value" placeholder={type === 'date' ? 'YYYY-MM-DD' : type === 'time' ? 'HH:mm:ss' : type === 'datetime' ? 'YYYY-MM-DDTHH:mm:ssZ' : undefined} {...form.getInputProps('defaultValue')} />
        )}
        {type === 'boolean' && <Select label="Default value" data={[{ value: 'true', label: 'true' }, { value: 'false', label: 'false' }]} clearable {...form.getInputProps('defaultValue')} />}
        {type === 'enumeration' && <Select label="Default value" data={v.enumValues} clearable {...form.getInputProps('defaultValue')} />}
        {type === 'json' && <Textarea label="Default value (JSON)" autosize minRows={2} ff="monospace" {...form.getInputProps('defaultValue')} />}
        {type && type !== 'relation' && (
          <Group>
            <Checkbox label="Required" {...form.getInputProps('required', { type: 'checkbox' })} />
            {UNIQUE_TYPES.has(type) && <Checkbox label="Unique" {...form.getInputProps('unique', { type: 'checkbox' })} />}
            <Checkbox label="Private (never in API answers)" {...form.getInputProps('private', { type: 'checkbox' })} />
            {typeLocalized && <Checkbox label="Localized (differs per locale)" {...form.getInputProps('localized', { type: 'checkbox' })} />}
          </Group>
        )}
        {!type && <Text size="sm" c="dimmed">Choose a type to see its options.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit">{target.name ? 'Save attribute' : 'Add attribute'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
