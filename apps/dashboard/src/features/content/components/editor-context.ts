// What every field of the editor needs besides its own attribute: the form, the document it
// belongs to (for uid checks and relation locales) and whether it may be changed.
import type { UseFormReturnType } from '@mantine/form';
import { createContext, useContext, type ReactNode } from 'react';
import type { AttributeSchema, Model } from '../../../model/schema.ts';
import type { ContentType } from './content-model.ts';
import type { FormValues } from './form-state.ts';

export interface EditorEnv {
  slug: string;
  model: Model;
  type: ContentType;
  /** the locale version edited (localized types) */
  locale?: string;
  /** absent for a new document */
  documentId?: string;
  readOnly: boolean;
  form: UseFormReturnType<FormValues>;
  /** JSON editors report text that does not parse: saving waits until it does. */
  setJsonValid(path: string, valid: boolean): void;
  /** The fields of a component's attributes under `prefix` (given here: components nest). */
  renderAttributes(attributes: Record<string, AttributeSchema>, prefix: string): ReactNode;
}

export const EditorContext = createContext<EditorEnv | null>(null);

export function useEditor(): EditorEnv {
  const env = useContext(EditorContext);
  if (!env) throw new Error('useEditor outside the document editor');
  return env;
}

/** A form value by its dotted path (`sections.0.heading`). */
export function valueAt(values: FormValues, path: string): unknown {
  let at: unknown = values;
  for (const part of path.split('.')) at = at === null || at === undefined ? undefined : (at as Record<string, unknown>)[part];
  return at;
}
