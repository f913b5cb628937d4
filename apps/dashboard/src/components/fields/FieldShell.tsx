// Label, description and error around an editor that is not a native input (Slate, CodeMirror,
// the relation list), laid out like Mantine's inputs. The label is a <div> (a <label> only names
// form controls): the editor names itself with `aria-labelledby={ids.label}` instead.
import { Input } from '@mantine/core';
import { useId, type ReactNode } from 'react';

export interface FieldIds {
  base: string;
  label: string;
  description: string;
  error: string;
}

export function useFieldIds(): FieldIds {
  const base = `field-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return { base, label: `${base}-label`, description: `${base}-description`, error: `${base}-error` };
}

/** `aria-describedby` of the editor: its error first, then its description. */
export function describedBy(ids: FieldIds, parts: { error?: ReactNode; description?: ReactNode }): string | undefined {
  return [parts.error ? ids.error : null, parts.description ? ids.description : null].filter(Boolean).join(' ') || undefined;
}

export function FieldShell({ ids, label, description, error, required, onLabelClick, children }: {
  ids: FieldIds;
  label: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  /** Clicking the label focuses the editor, as it would a native input. */
  onLabelClick?(): void;
  children: ReactNode;
}) {
  return (
    <Input.Wrapper
      id={ids.base} labelElement="div" label={label} description={description} error={error} required={required}
      labelProps={{ id: ids.label, onClick: onLabelClick }}
    >
      {children}
    </Input.Wrapper>
  );
}
