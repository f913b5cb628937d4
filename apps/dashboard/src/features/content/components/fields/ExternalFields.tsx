// Blocks, Markdown, JSON, relations and media: the dashboard's shared editors, bound to the form.
import { isMultipleRelation } from '../form-state.ts';
import { useEditor, valueAt } from '../editor-context.ts';
import type { FieldProps } from './field-props.ts';
import { BlocksEditor, JsonEditor, MarkdownEditor, MediaField, RelationPicker, type MediaFile, type RelationItem } from './shared-editors.ts';

/** The value, setter and error of a form path, as the shared editors take them. */
function useBinding<T>(path: string) {
  const { form } = useEditor();
  const error = form.errors[path];
  return {
    value: valueAt(form.getValues(), path) as T,
    onChange: (next: T) => form.setFieldValue(path, next),
    error: typeof error === 'string' ? error : error ? String(error) : undefined,
  };
}

export function BlocksField({ path, name, attr, note }: FieldProps) {
  const { slug, readOnly } = useEditor();
  const bind = useBinding<unknown[] | null>(path);
  return <BlocksEditor slug={slug} label={name} required={attr.required} disabled={readOnly} description={note} {...bind} />;
}

export function MarkdownField({ path, name, attr, note }: FieldProps) {
  const { readOnly } = useEditor();
  const bind = useBinding<string | null>(path);
  return <MarkdownEditor label={name} required={attr.required} disabled={readOnly} description={note} {...bind} />;
}

export function JsonField({ path, name, attr }: FieldProps) {
  const { readOnly, setJsonValid } = useEditor();
  const bind = useBinding<unknown>(path);
  return <JsonEditor label={name} required={attr.required} disabled={readOnly} onValidityChange={(valid) => setJsonValid(path, valid)} {...bind} />;
}

export function RelationField({ path, name, attr }: FieldProps) {
  const { slug, readOnly, locale } = useEditor();
  const bind = useBinding<RelationItem[]>(path);
  return (
    <RelationPicker
      slug={slug} label={name} targetUid={attr.target ?? ''} multiple={isMultipleRelation(attr)} locale={locale}
      required={attr.required} disabled={readOnly} {...bind}
    />
  );
}

export function MediaAttributeField({ path, name, attr }: FieldProps) {
  const { slug, readOnly } = useEditor();
  const bind = useBinding<MediaFile[]>(path);
  return <MediaField slug={slug} label={name} multiple={attr.multiple === true} allowedTypes={attr.allowedTypes} required={attr.required} disabled={readOnly} {...bind} />;
}
