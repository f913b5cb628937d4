// A CodeMirror editor as a form field: its editable region is named by the field's label and
// described by its description and error (so axe and screen readers find it as a labelled
// textbox), Tab leaves it (no keyboard trap), and read-only keeps it focusable and selectable.
import CodeMirror, { EditorView, type BasicSetupOptions, type Extension } from '@uiw/react-codemirror';
import { useMemo, useRef } from 'react';
import { describedBy, type FieldIds } from './FieldShell.tsx';
import frame from './fields.module.css';

// CodeMirror's own theme (not page CSS): it applies before CodeMirror measures its lines, so the
// gutter stays aligned with the text. The frame around shows the focus.
const FIELD_THEME = EditorView.theme({
  '&': { fontSize: 'var(--mantine-font-size-sm)', backgroundColor: 'transparent' },
  '&.cm-focused': { outline: 'none' },
  '.cm-gutters': { backgroundColor: 'var(--mantine-color-gray-0)', color: 'var(--mantine-color-gray-7)' },
});

export interface CodeFieldProps {
  ids: FieldIds;
  text: string;
  onText(text: string): void;
  /** the language and any other CodeMirror extensions (keep the array stable between renders) */
  extensions: Extension[];
  basicSetup: BasicSetupOptions;
  readOnly?: boolean;
  required?: boolean;
  error?: string;
  description?: string;
  minHeight?: string;
  /** receives the view, to focus it when the label is clicked */
  viewRef?: { current: EditorView | null };
}

export function CodeField({ ids, text, onText, extensions, basicSetup, readOnly, required, error, description, minHeight = '8rem', viewRef }: CodeFieldProps) {
  const describedByIds = describedBy(ids, { error, description });
  const attributes = useMemo(() => {
    const attrs: Record<string, string> = { 'aria-labelledby': ids.label };
    if (describedByIds) attrs['aria-describedby'] = describedByIds;
    if (error) attrs['aria-invalid'] = 'true';
    if (required) attrs['aria-required'] = 'true';
    if (readOnly) attrs['aria-readonly'] = 'true';
    return EditorView.contentAttributes.of(attrs);
  }, [ids.label, describedByIds, error, required, readOnly]);
  const all = useMemo(() => [...extensions, FIELD_THEME, attributes], [extensions, attributes]);
  // CodeMirror reconfigures when the handler changes: hand it a stable one.
  const latest = useRef(onText);
  latest.current = onText;
  const onChange = useMemo(() => (value: string) => latest.current(value), []);

  return (
    <div className={frame.frame} data-error={error ? true : undefined} data-disabled={readOnly || undefined}>
      <CodeMirror
        value={text} onChange={onChange} extensions={all} basicSetup={basicSetup}
        readOnly={readOnly} indentWithTab={false} minHeight={minHeight} maxHeight="40rem"
        onCreateEditor={(view) => { if (viewRef) viewRef.current = view; }}
      />
    </div>
  );
}
