// The editor's buttons beside History: Open preview for every stored entry; Add to release and
// Schedule for types with draft & publish, for members who may edit.
import { AddToRelease } from './AddToRelease.tsx';
import type { EntryTarget } from './entry-target.ts';
import { PreviewButton } from './PreviewButton.tsx';
import { ScheduleEntry } from './ScheduleEntry.tsx';

export function PublishingButtons({ target, draftAndPublish, canEdit }: { target: EntryTarget; draftAndPublish: boolean; canEdit: boolean }) {
  return (
    <>
      {/* The editor edits the draft; a type without draft & publish has only published rows. */}
      <PreviewButton target={target} status={draftAndPublish ? 'draft' : 'published'} />
      {draftAndPublish && canEdit && <AddToRelease target={target} />}
      {draftAndPublish && canEdit && <ScheduleEntry target={target} />}
    </>
  );
}
