// Slate's node types for the blocks editor (Slate reads them from this module augmentation).
import type { BaseEditor } from 'slate';
import type { HistoryEditor } from 'slate-history';
import type { ReactEditor } from 'slate-react';
import type { SlateElement, SlateText } from './blocks.ts';

export type BlocksSlateEditor = BaseEditor & ReactEditor & HistoryEditor;

declare module 'slate' {
  interface CustomTypes {
    Editor: BlocksSlateEditor;
    Element: SlateElement;
    Text: SlateText;
  }
}
