// Publish or unpublish: what a release or a schedule does with the entry.
import { Group, Radio } from '@mantine/core';
import type { ActionType } from '../../../releases/api/get-release-actions.ts';

export function ActionTypeRadio({ value, onChange }: { value: ActionType; onChange(value: ActionType): void }) {
  return (
    <Radio.Group label="Action" value={value} onChange={(v) => onChange(v as ActionType)}>
      <Group mt={6}>
        <Radio value="publish" label="Publish" />
        <Radio value="unpublish" label="Unpublish" />
      </Group>
    </Radio.Group>
  );
}
