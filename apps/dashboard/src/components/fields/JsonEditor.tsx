// A JSON attribute: CodeMirror with JSON highlighting, pretty-printed. While the text does not
// parse, the parser's message is shown and the form is told (it keeps the last valid value and
// will not save); empty text is null.
import { json } from '@codemirror/lang-json';
import { type BasicSetupOptions, type EditorView } from '@uiw/react-codemirror';
import { useEffect, useRef, useState } from 'react';
import { CodeField } from './CodeField.tsx';
import { FieldShell, useFieldIds } from './FieldShell.tsx';
import { jsonText, parseJsonText } from './json-text.ts';
import { useExternalValue } from './use-external-value.ts';

const EXTENSIONS = [json()];
const SETUP: BasicSetupOptions = { autocompletion: false, highlightActiveLine: false };

export function JsonEditor(props: {
  label: string;
  value: unknown;
  onChange(value: unknown): void;
  onValidityChange?(valid: boolean): void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
}) {
  const { label, value, onChange, onValidityChange, error, required, disabled } = props;
  const ids = useFieldIds();
  const [text, setText] = useState(() => jsonText(value));
  const [parseError, setParseError] = useState<string | null>(null);
  const { generation, report } = useExternalValue(value);
  const view = useRef<EditorView | null>(null);
  // Validity as last reported (a ref: several edits can come between two renders).
  const valid = useRef(true);
  const setValid = (next: boolean) => {
    if (valid.current === next) return;
    valid.current = next;
    onValidityChange?.(next);
  };

  useEffect(() => {
    if (generation === 0) return;
    // A value from elsewhere replaces the text (and whatever did not parse).
    setText(jsonText(value));
    setParseError(null);
    setValid(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [generation]);

  // A field removed while its text did not parse no longer holds the form back.
  const latestValidity = useRef(onValidityChange);
  latestValidity.current = onValidityChange;
  useEffect(() => () => { if (!valid.current) latestValidity.current?.(true); }, []);

  const onText = (next: string) => {
    setText(next);
    const parsed = parseJsonText(next);
    if (!parsed.ok) {
      setParseError(`Invalid JSON: ${parsed.message}`);
      setValid(false);
      return;
    }
    setParseError(null);
    setValid(true);
    if (report(parsed.value)) onChange(parsed.value);
  };

  const shown = parseError ?? error;
  return (
    <FieldShell ids={ids} label={label} error={shown} required={required} onLabelClick={() => view.current?.focus()}>
      <CodeField ids={ids} text={text} onText={onText} extensions={EXTENSIONS} basicSetup={SETUP}
        readOnly={disabled} required={required} error={shown} viewRef={view} minHeight="6rem" />
    </FieldShell>
  );
}
