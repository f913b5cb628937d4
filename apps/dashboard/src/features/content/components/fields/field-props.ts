// The props every attribute field takes, and the limits it shows under its label.
import type { AttributeSchema } from '../../../../model/schema.ts';

export interface FieldProps {
  /** the form path (`title`, `sections.0.heading`) */
  path: string;
  /** the attribute's name, shown as its label */
  name: string;
  attr: AttributeSchema;
  /** a note added under the label (e.g. "Same in every locale") */
  note?: string;
}

/** Several hints in one description line. */
export const joinHints = (...hints: Array<string | null | undefined | false>) => hints.filter(Boolean).join(' · ') || undefined;

export function lengthHint(attr: AttributeSchema): string | null {
  const { minLength: min, maxLength: max } = attr;
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters`;
  if (min !== undefined) return `At least ${min} characters`;
  if (max !== undefined) return `At most ${max} characters`;
  return null;
}

export function rangeHint(attr: AttributeSchema): string | null {
  const { min, max } = attr;
  if (min !== undefined && max !== undefined) return `From ${min} to ${max}`;
  if (min !== undefined) return `${min} or more`;
  if (max !== undefined) return `${max} or less`;
  return null;
}

export const regexHint = (attr: AttributeSchema) => (attr.regex ? `Must match /${attr.regex}/` : null);

/** Item counts of repeatable components and dynamic zones. */
export function countHint(attr: AttributeSchema): string | null {
  const { min, max } = attr;
  if (min !== undefined && max !== undefined) return `${min} to ${max} items`;
  if (min !== undefined) return `At least ${min} items`;
  if (max !== undefined) return `At most ${max} items`;
  return null;
}
