// Save and Publish of the editor's form. Before writing over a stored version, its draft's
// `updatedAt` is read again: when someone changed it since the form was loaded, the user decides
// (overwrite, or load their version) instead of losing either. The API's validation errors land
// on the fields they name; the form keeps everything that was typed.
import type { UseFormReturnType } from '@mantine/form';
import { useRef, useState } from 'react';
import { reportFormError } from '../../../lib/api-error.ts';
import type { Model } from '../../../model/schema.ts';
import { useSaveDocument } from '../api/save-document.ts';
import { getVersionStamp } from '../api/get-version-stamp.ts';
import type { VersionRef } from '../api/version-ref.ts';
import { bodyFromValues, type Document, type FormValues } from './form-state.ts';

export type SaveKind = 'save' | 'publish';

export interface SaveOptions {
  ref: VersionRef;
  model: Model;
  form: UseFormReturnType<FormValues>;
  /** the values as stored (relations are written as changes against them); null: a new version */
  baseline: FormValues | null;
  /** the draft's `updatedAt` when the form was loaded; null: the version does not exist yet */
  loadedStamp: string | null;
  onSaved(doc: Document, kind: SaveKind): void | Promise<void>;
}

export function useSave({ ref, model, form, baseline, loadedStamp, onSaved }: SaveOptions) {
  const [busy, setBusy] = useState<SaveKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<SaveKind | null>(null);
  const invalidJson = useRef(new Set<string>());
  const write = useSaveDocument();

  const setJsonValid = (path: string, valid: boolean) => {
    if (valid) invalidJson.current.delete(path);
    else invalidJson.current.add(path);
  };

  /** `overwrite`: the user chose to write over someone else's change. */
  async function save(kind: SaveKind, overwrite = false) {
    setError(null);
    setConflict(null);
    if (invalidJson.current.size) {
      setError(`Fix the JSON in ${[...invalidJson.current].join(', ')} first: it does not parse.`);
      return;
    }
    setBusy(kind);
    try {
      // A brand-new document has nothing to conflict with.
      if (!overwrite && (ref.documentId || loadedStamp)) {
        const current = await getVersionStamp(ref);
        if (current !== loadedStamp) {
          setConflict(kind);
          return;
        }
      }
      form.clearErrors();
      const doc = await write.mutateAsync({ ref, body: bodyFromValues(model, ref.type.attributes, form.getValues(), baseline), publish: kind === 'publish' });
      await onSaved(doc, kind);
    } catch (err) {
      let marked = false;
      reportFormError(err, (fields) => {
        form.setErrors(fields);
        marked = true;
      }, setError, 'Could not save the document');
      if (marked) setError(`${(err as Error).message}. The fields concerned are marked below.`);
    } finally {
      setBusy(null);
    }
  }

  return { busy, error, setError, conflict, dismissConflict: () => setConflict(null), save, setJsonValid };
}
