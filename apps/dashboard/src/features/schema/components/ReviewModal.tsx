// Shows what applying the working copy will do (the API rehearses the migration and rolls it
// back), asks for a confirmation when data would be deleted, then applies it.
import { Alert, Badge, Button, Checkbox, Group, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-error.ts';
import type { Model, StoredModel } from '../../../model/schema.ts';
import { planSchema, type PlannedChange, type SchemaPlan, type SchemaPush } from '../api/plan-schema.ts';
import { useUpdateSchema } from '../api/update-schema.ts';

/** The working copy as the builder pushes it: with its renames and the version it was made against. */
export type ModelPush = Model & Required<Pick<SchemaPush, 'renames' | 'expectedVersion'>>;

export function ReviewModal({ slug, push, onClose, onApplied, onRefused }: {
  slug: string;
  /** the body to rehearse and apply (null: closed) */
  push: ModelPush | null;
  onClose(): void;
  /** applied: the project's model is the one answered (`result`) */
  onApplied(result: StoredModel): void;
  /** the API refused the change (while planning or applying): shown on the page, not here */
  onRefused(error: ApiError): void;
}) {
  return (
    <Modal opened={push !== null} onClose={onClose} title="Review changes" size="lg">
      {push && <Review slug={slug} push={push} onClose={onClose} onApplied={onApplied} onRefused={onRefused} />}
    </Modal>
  );
}

/** A created type's columns are its attributes: name them, as the plan names added ones. */
function fieldsOf(push: ModelPush, change: PlannedChange): string {
  if (change.op !== 'createContentType' && change.op !== 'createComponent') return '';
  const entry = change.op === 'createContentType' ? push.contentTypes[change.type] : push.components[change.type];
  const names = Object.keys(entry?.attributes ?? {});
  return names.length ? ` with ${names.join(', ')}` : '';
}

function Review({ slug, push, onClose, onApplied, onRefused }: { slug: string; push: ModelPush; onClose(): void; onApplied(result: StoredModel): void; onRefused(error: ApiError): void }) {
  const [plan, setPlan] = useState<SchemaPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [understood, setUnderstood] = useState(false);
  const [applying, setApplying] = useState(false);
  const update = useUpdateSchema();

  useEffect(() => {
    let live = true;
    planSchema(slug, push).then(
      (p) => live && setPlan(p),
      (err: unknown) => {
        if (!live) return;
        if (err instanceof ApiError && err.status >= 400 && err.status < 500) onRefused(err);
        else setError(err instanceof Error ? err.message : 'Could not plan the change');
      },
    );
    return () => {
      live = false;
    };
  }, [slug, push, onRefused]);

  async function apply() {
    setApplying(true);
    setError(null);
    try {
      onApplied(await update.mutateAsync({ slug, push }));
    } catch (err) {
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) onRefused(err);
      else setError(err instanceof Error ? err.message : 'Could not apply the change');
    } finally {
      setApplying(false);
    }
  }

  if (error) return <Alert color="red" role="alert" title="Something went wrong">{error}</Alert>;
  if (!plan) return <Group><Loader size="sm" aria-label="Planning" /><Text size="sm">Checking what will change…</Text></Group>;
  return (
    <Stack>
      {plan.changes.length === 0 ? (
        <Text size="sm">{plan.changed ? 'Only names shown in the dashboard change: no table is touched.' : 'Nothing to apply: the model is unchanged.'}</Text>
      ) : (
        <List aria-label="Planned changes" spacing={4} size="sm">
          {plan.changes.map((c, i) => (
            <List.Item key={i} data-destructive={c.destructive}>
              {c.description}{fieldsOf(push, c)} {c.destructive && <Badge color="red" variant="light" ml={4}>deletes data</Badge>}
            </List.Item>
          ))}
        </List>
      )}
      {plan.destructive && (
        <Alert color="red" title="Data will be deleted">
          <Stack gap="xs">
            <Text size="sm">The changes marked above delete what is stored in them, in every entry and locale. This cannot be undone.</Text>
            <Checkbox label="I understand that this data will be deleted" checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
          </Stack>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button onClick={apply} loading={applying} disabled={!plan.changed || (plan.destructive && !understood)} color={plan.destructive ? 'red' : undefined}>
          Apply changes
        </Button>
      </Group>
    </Stack>
  );
}
