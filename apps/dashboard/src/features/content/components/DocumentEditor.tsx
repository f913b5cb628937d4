// The form of one document version: a field per attribute, the actions, the API's errors on the
// fields they name and the conflict prompt. Mounted anew whenever the stored version changes.
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useRef, type ReactNode } from 'react';
import { useBlocker } from 'react-router';
import { EditableArea } from '../../../components/ViewOnly.tsx';
import type { Model } from '../../../model/schema.ts';
import { useReloadDocument } from '../api/get-draft.ts';
import type { VersionRef } from '../api/version-ref.ts';
import { EditorContext, type EditorEnv } from './editor-context.ts';
import { ConflictModal, EditorActions } from './EditorActions.tsx';
import { AttributeFields } from './fields/AttributeFields.tsx';
import type { Document, FormValues } from './form-state.ts';
import type { DocumentStatus } from './list-query.ts';
import { useSave, type SaveKind } from './use-save.ts';

export interface DocumentEditorProps {
  versionRef: VersionRef;
  model: Model;
  initialValues: FormValues;
  /** the stored values (null: the version is new) */
  baseline: FormValues | null;
  loadedStamp: string | null;
  status: DocumentStatus | null;
  readOnly: boolean;
  localeLabel: string;
  /** shown above the fields (e.g. where a new locale version was filled in from) */
  notice?: ReactNode;
  onSaved(doc: Document, kind: SaveKind): Promise<void>;
  onDeleted(): void;
}

const renderAttributes = (attributes: Parameters<EditorEnv['renderAttributes']>[0], prefix: string) => <AttributeFields attributes={attributes} prefix={prefix} />;

export function DocumentEditor(props: DocumentEditorProps) {
  const { versionRef, model, readOnly } = props;
  const form = useForm<FormValues>({ mode: 'controlled', initialValues: props.initialValues });
  // While a successful save is handled the page may move on (a new document's URL) without asking.
  const saved = useRef(false);
  // Their version: the stored one read again (the form is replaced by it).
  const reload = useReloadDocument(versionRef.slug, versionRef.type.uid);
  const saver = useSave({
    ref: versionRef, model, form, baseline: props.baseline, loadedStamp: props.loadedStamp,
    onSaved: async (doc, kind) => {
      saved.current = true;
      try {
        await props.onSaved(doc, kind);
      } finally {
        saved.current = false;
      }
    },
  });
  const unsaved = () => !readOnly && !saved.current && form.isDirty();
  const leaving = useBlocker(({ currentLocation, nextLocation }) =>
    unsaved() && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search));
  // Closing the tab, reloading or leaving the dashboard: the browser's own prompt.
  const unsavedRef = useRef(unsaved);
  unsavedRef.current = unsaved;
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (unsavedRef.current()) e.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const env: EditorEnv = {
    slug: versionRef.slug, model, type: versionRef.type, locale: versionRef.locale, documentId: versionRef.documentId,
    readOnly, form, setJsonValid: saver.setJsonValid, renderAttributes,
  };
  return (
    <EditorContext.Provider value={env}>
      <form
        noValidate aria-label="Document"
        onSubmit={(e) => {
          e.preventDefault();
          if (!readOnly) void saver.save('save');
        }}
      >
        <Stack>
          {!readOnly && (
            <Group justify="space-between">
              <EditorActions
                versionRef={versionRef} status={props.status} stored={props.baseline !== null} localeLabel={props.localeLabel}
                busy={saver.busy} onSave={(kind) => void saver.save(kind)} onDeleted={props.onDeleted}
              />
              <Text size="sm" c="dimmed" role="status">{form.isDirty() ? 'Unsaved changes' : ''}</Text>
            </Group>
          )}
          {props.notice}
          {saver.error && <Alert color="red" role="alert" title="Not saved">{saver.error}</Alert>}
          <EditableArea readOnly={readOnly}>
            <AttributeFields attributes={versionRef.type.attributes} prefix="" />
          </EditableArea>
        </Stack>
      </form>
      <Modal opened={leaving.state === 'blocked'} onClose={() => leaving.reset?.()} title="Leave without saving?">
        <Stack>
          <Text size="sm">Your changes to this entry are not saved. They are lost if you leave.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => leaving.reset?.()}>Stay on this page</Button>
            <Button color="red" onClick={() => leaving.proceed?.()}>Leave without saving</Button>
          </Group>
        </Stack>
      </Modal>
      <ConflictModal
        opened={saver.conflict !== null} onClose={saver.dismissConflict}
        onOverwrite={() => void saver.save(saver.conflict!, true)}
        onLoadTheirs={() => {
          saver.dismissConflict();
          void reload();
        }}
      />
    </EditorContext.Provider>
  );
}
