// The blocks editor's toolbar: block type, lists, marks, link, image, undo and redo. Buttons keep
// the editor's selection (a mouse press does not take the focus) and give the focus back after
// acting, so keyboard users land where they were typing.
import { ActionIcon, NativeSelect } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Transforms, type BaseSelection, type Editor } from 'slate';
import { HistoryEditor } from 'slate-history';
import { ReactEditor, useSlate } from 'slate-react';
import type { ListFormat, Mark } from './blocks.ts';
import {
  activeLink, currentBlockKind, insertImage, isListActive, isMarkActive, removeLink, setBlockKind, setLink, toggleList, toggleMark, type BlockKind,
} from './blocks-commands.ts';
import classes from './BlocksEditor.module.css';
import { BulletListIcon, ImageIcon, LinkIcon, NumberedListIcon, RedoIcon, UndoIcon, UnlinkIcon } from './icons.tsx';
import { ImagePickerModal } from './ImagePickerModal.tsx';
import { LinkModal } from './LinkModal.tsx';

const BLOCK_KINDS: Array<{ value: BlockKind; label: string }> = [
  { value: 'paragraph', label: 'Paragraph' },
  ...([1, 2, 3, 4, 5, 6] as const).map((level) => ({ value: `heading-${level}` as BlockKind, label: `Heading ${level}` })),
  { value: 'quote', label: 'Quote' },
  { value: 'code', label: 'Code block' },
];

/** Marks with their shortcut (mod = Ctrl, or ⌘ on a Mac) and the glyph shown. */
export const MARK_BUTTONS: Array<{ mark: Mark; label: string; glyph: ReactNode; key?: string }> = [
  { mark: 'bold', label: 'Bold', glyph: <b>B</b>, key: 'b' },
  { mark: 'italic', label: 'Italic', glyph: <i>I</i>, key: 'i' },
  { mark: 'underline', label: 'Underline', glyph: <u>U</u>, key: 'u' },
  { mark: 'strikethrough', label: 'Strikethrough', glyph: <s>S</s> },
  { mark: 'code', label: 'Inline code', glyph: <code>{'<>'}</code> },
];

const MOD = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl+';

function ToolButton({ label, title, pressed, disabled, onAction, children }: {
  label: string; title?: string; pressed?: boolean; disabled?: boolean; onAction(): void; children: ReactNode;
}) {
  return (
    <ActionIcon
      variant={pressed ? 'filled' : 'subtle'} color={pressed ? undefined : 'gray'} size="md"
      aria-label={label} title={title ?? label} aria-pressed={pressed} disabled={disabled}
      // Keep the editor's focus and selection on a mouse press; keyboard activation still works.
      onMouseDown={(e) => e.preventDefault()} onClick={onAction}
    >
      <span aria-hidden style={{ display: 'inline-flex' }}>{children}</span>
    </ActionIcon>
  );
}

export function BlocksToolbar({ slug, label }: { slug: string; label: string }) {
  const editor = useSlate();
  const [dialog, setDialog] = useState<'link' | 'image' | null>(null);
  // The selection when a dialog opened: typing in the dialog must not lose where to insert.
  const [saved, setSaved] = useState<BaseSelection>(null);

  const act = (action: () => void) => {
    syncSelection(editor);
    action();
    ReactEditor.focus(editor);
  };
  const open = (which: 'link' | 'image') => {
    syncSelection(editor);
    setSaved(editor.selection);
    setDialog(which);
  };
  const closeDialog = (then?: () => void) => {
    setDialog(null);
    if (saved) Transforms.select(editor, saved);
    if (then) then();
    // Once the modal is gone (it does not hand the focus back itself).
    setTimeout(() => ReactEditor.focus(editor), 0);
  };

  const kind = currentBlockKind(editor);
  const link = activeLink(editor);
  const { history } = editor;
  return (
    <div role="toolbar" aria-label={`${label} formatting`} className={classes.toolbar}>
      <NativeSelect
        aria-label="Text style" size="xs" value={kind ?? ''} w={130}
        onChange={(e) => {
          const value = e.currentTarget.value as BlockKind | '';
          if (value) act(() => setBlockKind(editor, value));
        }}
      >
        {kind === null && <option value="" disabled>List item</option>}
        {BLOCK_KINDS.map((k) => <option key={k.value} value={k.value}>{k.label}</option>)}
      </NativeSelect>
      <span className={classes.separator} />
      {MARK_BUTTONS.map((m) => (
        <ToolButton key={m.mark} label={m.label} title={m.key ? `${m.label} (${MOD}${m.key.toUpperCase()})` : m.label}
          pressed={isMarkActive(editor, m.mark)} onAction={() => act(() => toggleMark(editor, m.mark))}>
          {m.glyph}
        </ToolButton>
      ))}
      <span className={classes.separator} />
      {(['unordered', 'ordered'] as ListFormat[]).map((format) => (
        <ToolButton key={format} label={format === 'ordered' ? 'Numbered list' : 'Bulleted list'} pressed={isListActive(editor, format)}
          onAction={() => act(() => toggleList(editor, format))}>
          {format === 'ordered' ? <NumberedListIcon /> : <BulletListIcon />}
        </ToolButton>
      ))}
      <span className={classes.separator} />
      <ToolButton label={link ? 'Edit link' : 'Link'} pressed={!!link} onAction={() => open('link')}><LinkIcon /></ToolButton>
      <ToolButton label="Remove link" disabled={!link} onAction={() => act(() => removeLink(editor))}><UnlinkIcon /></ToolButton>
      <ToolButton label="Image" onAction={() => open('image')}><ImageIcon /></ToolButton>
      <span className={classes.separator} />
      <ToolButton label="Undo" title={`Undo (${MOD}Z)`} disabled={history.undos.length === 0} onAction={() => act(() => HistoryEditor.undo(editor))}><UndoIcon /></ToolButton>
      <ToolButton label="Redo" title={`Redo (${MOD}Shift+Z)`} disabled={history.redos.length === 0} onAction={() => act(() => HistoryEditor.redo(editor))}><RedoIcon /></ToolButton>

      <LinkModal
        opened={dialog === 'link'} initialUrl={link?.[0].url ?? ''} canRemove={!!link}
        onSave={(url) => closeDialog(() => setLink(editor, url))}
        onRemove={() => closeDialog(() => removeLink(editor))}
        onClose={() => closeDialog()}
      />
      <ImagePickerModal
        slug={slug} opened={dialog === 'image'}
        onInsert={(image) => closeDialog(() => insertImage(editor, image))}
        onClose={() => closeDialog()}
      />
    </div>
  );
}

/**
 * Slate reads the browser's selection a moment after it changes (throttled): a toolbar button
 * pressed right after selecting text (Shift+Home, a double click) must act on what is selected now.
 */
function syncSelection(editor: Editor): void {
  const dom = window.getSelection();
  if (!dom || dom.rangeCount === 0 || !dom.anchorNode || !ReactEditor.hasDOMNode(editor, dom.anchorNode)) return;
  const range = ReactEditor.toSlateRange(editor, dom, { exactMatch: false, suppressThrow: true });
  if (range) Transforms.select(editor, range);
}

/** The shortcut's mark for a keydown in the editor (mod+B, mod+I, mod+U), if any. */
export function shortcutMark(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): Mark | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return null;
  const key = event.key.toLowerCase();
  return MARK_BUTTONS.find((m) => m.key === key)?.mark ?? null;
}
