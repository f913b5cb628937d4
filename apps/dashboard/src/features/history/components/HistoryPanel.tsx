// The entry editor's History panel: a drawer with the document-locale's versions as a timeline and
// the chosen one beside the current entry. After a restore the drawer closes, the editor reads the
// entry again and a notification names the links left out, if any.
import { Button, Drawer, Grid, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Model } from '../../../model/schema.ts';
import { PageError, PageLoader } from '../../../components/PageState.tsx';
import { useVersions, type HistoryTarget } from '../api/get-versions.ts';
import type { DroppedLink } from '../api/restore-version.ts';
import { pathLabel } from './compare-rows.ts';
import { VersionCompare } from './VersionCompare.tsx';
import { VersionTimeline, versionLabel, type NumberedVersion } from './VersionTimeline.tsx';

export interface HistoryPanelProps {
  target: HistoryTarget;
  model: Model;
  canEdit: boolean;
  draftAndPublish: boolean;
}

export function HistoryPanel(props: HistoryPanelProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpened(true)}>History</Button>
      <Drawer opened={opened} onClose={() => setOpened(false)} position="right" size={1000} title="History" closeButtonProps={{ 'aria-label': 'Close' }}>
        <HistoryBody {...props} onRestored={() => setOpened(false)} />
      </Drawer>
    </>
  );
}

const droppedText = (d: DroppedLink) => `${pathLabel(d.path)} (${d.documentId !== undefined ? `entry ${d.documentId}` : `file ${String(d.id)}`})`;

/** `onRestored`: after a restore (the entry and its versions have been read again). */
function HistoryBody({ target, model, canEdit, draftAndPublish, onRestored }: HistoryPanelProps & { onRestored(): void }) {
  const versions = useVersions(target);
  const [selected, setSelected] = useState<NumberedVersion | null>(null);
  if (versions.isPending) return <PageLoader label="Loading the history…" />;
  if (versions.isError) return <PageError error={versions.error} title="Could not load the history" />;
  const total = versions.data.pages[0]?.meta.pagination.total ?? 0;
  const items = versions.data.pages.flatMap((p) => p.data).map((version, i) => ({ version, number: total - i }));
  if (items.length === 0) return <Text>No versions yet: they are recorded from the next change on.</Text>;

  function restored(item: NumberedVersion, dropped: DroppedLink[]) {
    notifications.show({
      color: dropped.length ? 'orange' : 'teal', title: `${versionLabel(item.number)} restored`,
      message: dropped.length ? `Left out, deleted since: ${dropped.map(droppedText).join(', ')}.` : 'The entry shows its content now.',
    });
    onRestored();
  }
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <VersionTimeline
          versions={items} selected={selected?.version.id ?? null} showStatus={draftAndPublish} onSelect={setSelected}
          more={{ has: versions.hasNextPage, loading: versions.isFetchingNextPage, load: () => void versions.fetchNextPage() }}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {selected
          ? <VersionCompare key={selected.version.id} slug={target.slug} model={model} item={selected} canEdit={canEdit} draftAndPublish={draftAndPublish}
            onRestored={(dropped) => restored(selected, dropped)} />
          : <Text c="dimmed" size="sm">Choose a version to see it beside the current entry.</Text>}
      </Grid.Col>
    </Grid>
  );
}
