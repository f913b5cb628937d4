// A document's draft & publish status: never published, published as it is, or published with
// newer draft changes.
import { Badge } from '@mantine/core';
import type { DocumentStatus } from './list-query.ts';

const LOOK: Record<DocumentStatus, { label: string; color: string }> = {
  draft: { label: 'Draft', color: 'blue' },
  published: { label: 'Published', color: 'teal' },
  modified: { label: 'Modified', color: 'violet' },
};

export function StatusBadge({ status }: { status: DocumentStatus }) {
  const { label, color } = LOOK[status];
  // The darkest shade on a transparent background keeps the contrast above 4.5:1.
  return <Badge variant="outline" color={`${color}.9`} data-status={status}>{label}</Badge>;
}
