// A rich-text editor for Strapi 5 `blocks` attributes, built on Slate: reads and writes Strapi's
// JSON (see blocks.ts), with a toolbar, mark shortcuts (mod+B/I/U), list nesting with Tab and
// Shift+Tab, and undo/redo (mod+Z, mod+Shift+Z).
import { useCallback, useMemo, type KeyboardEvent } from 'react';
import { createEditor, type Descendant } from 'slate';
import { withHistory } from 'slate-history';
import { Editable, ReactEditor, Slate, withReact, type RenderElementProps } from 'slate-react';
import { fromSlate, toSlate } from './blocks.ts';
import { indentItem, isNestedItem, outdentItem, toggleMark } from './blocks-commands.ts';
import { BlocksElement, BlocksLeaf } from './BlocksElements.tsx';
import classes from './BlocksEditor.module.css';
import frame from './fields.module.css';
import { withStrapiBlocks } from './blocks-plugin.ts';
import { BlocksToolbar, shortcutMark } from './BlocksToolbar.tsx';
import { describedBy, FieldShell, useFieldIds } from './FieldShell.tsx';
import { useExternalValue } from './use-external-value.ts';

export function BlocksEditor(props: {
  slug: string;
  label: string;
  value: unknown[] | null;
  onChange(value: unknown[]): void;
  error?: string;
  required?: boolean;
  disabled?: boolean;
  description?: string;
}) {
  const { slug, label, value, onChange, error, required, disabled, description } = props;
  const ids = useFieldIds();
  const { generation, report } = useExternalValue(value);
  // A value from elsewhere starts a fresh editor (and a fresh undo history).
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const editor = useMemo(() => withStrapiBlocks(withHistory(withReact(createEditor()))), [generation]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const initialValue = useMemo(() => toSlate(value) as Descendant[], [generation]);

  // Stable: Slate re-renders every element when this changes.
  const renderElement = useCallback((p: RenderElementProps) => <BlocksElement {...p} slug={slug} />, [slug]);

  const onValueChange = (next: Descendant[]) => {
    const blocks = fromSlate(next);
    if (report(blocks)) onChange(blocks);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const mark = shortcutMark(event);
    if (mark) {
      event.preventDefault();
      toggleMark(editor, mark);
      return;
    }
    // Tab nests a list item under the previous one, Shift+Tab takes it out a level. Elsewhere
    // (and for an item that cannot move) Tab moves the focus as usual: no keyboard trap.
    if (event.key === 'Tab' && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const moved = event.shiftKey ? isNestedItem(editor) && outdentItem(editor) : indentItem(editor);
      if (moved) event.preventDefault();
    }
  };

  return (
    <FieldShell ids={ids} label={label} description={description} error={error} required={required}
      onLabelClick={() => !disabled && ReactEditor.focus(editor)}>
      <div className={frame.frame} data-error={error ? true : undefined} data-disabled={disabled || undefined}>
        <Slate key={generation} editor={editor} initialValue={initialValue} onValueChange={onValueChange}>
          {!disabled && <BlocksToolbar slug={slug} label={label} />}
          <Editable
            className={classes.editable}
            readOnly={disabled}
            role="textbox"
            aria-multiline
            aria-readonly={disabled || undefined}
            aria-labelledby={ids.label}
            aria-describedby={describedBy(ids, { error, description })}
            aria-invalid={error ? true : undefined}
            aria-required={required || undefined}
            renderElement={renderElement}
            renderLeaf={BlocksLeaf}
            onKeyDown={onKeyDown}
          />
        </Slate>
      </div>
    </FieldShell>
  );
}
