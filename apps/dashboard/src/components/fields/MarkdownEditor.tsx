// A Markdown (`richtext`) field: Write in CodeMirror with Markdown highlighting, Preview rendered
// with react-markdown; read-only, the rendered text alone.
import { markdown } from '@codemirror/lang-markdown';
import { Box, Tabs } from '@mantine/core';
import { EditorView, type BasicSetupOptions } from '@uiw/react-codemirror';
import { useEffect, useRef, useState } from 'react';
import { CodeField } from './CodeField.tsx';
import { describedBy, FieldShell, useFieldIds } from './FieldShell.tsx';
import frame from './fields.module.css';
import { MarkdownPreview } from './MarkdownPreview.tsx';
import { useExternalValue } from './use-external-value.ts';

// Prose, not code: wrapped lines, no gutters, no completion popups.
const EXTENSIONS = [markdown(), EditorView.lineWrapping];
const SETUP: BasicSetupOptions = {
  lineNumbers: false, foldGutter: false, highlightActiveLineGutter: false, highlightActiveLine: false, autocompletion: false, closeBrackets: false,
};

export function MarkdownEditor(props: {
  label: string;
  value: string | null;
  onChange(value: string): void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  description?: string;
}) {
  const { label, value, onChange, error, required, disabled, description } = props;
  const ids = useFieldIds();
  const [text, setText] = useState(value ?? '');
  const [tab, setTab] = useState<string | null>('write');
  const { generation, report } = useExternalValue(value ?? '');
  // A value from elsewhere replaces the text.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => { if (generation > 0) setText(value ?? ''); }, [generation]);
  const view = useRef<EditorView | null>(null);

  const onText = (next: string) => {
    setText(next);
    if (report(next)) onChange(next);
  };

  if (disabled) {
    // Read-only (a viewer; the form's disabled fieldset turns tab buttons off too): the text as it reads.
    return (
      <FieldShell ids={ids} label={label} description={description} error={error} required={required}>
        <Box role="group" aria-labelledby={ids.label} aria-describedby={describedBy(ids, { error, description })}
          className={frame.frame} data-disabled px="sm" py="xs">
          <MarkdownPreview markdown={text} />
        </Box>
      </FieldShell>
    );
  }
  return (
    <FieldShell ids={ids} label={label} description={description} error={error} required={required}
      onLabelClick={() => { setTab('write'); view.current?.focus(); }}>
      <Tabs value={tab} onChange={setTab} keepMounted>
        <Tabs.List aria-label={`${label}: write or preview`} mb={6}>
          <Tabs.Tab value="write">Write</Tabs.Tab>
          <Tabs.Tab value="preview">Preview</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write">
          <CodeField ids={ids} text={text} onText={onText} extensions={EXTENSIONS} basicSetup={SETUP}
            required={required} error={error} description={description} viewRef={view} />
        </Tabs.Panel>
        <Tabs.Panel value="preview">
          <MarkdownPreview markdown={text} />
        </Tabs.Panel>
      </Tabs>
    </FieldShell>
  );
}
