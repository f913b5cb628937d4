// "Promote model to production": the API plans the migration from the environment's model to the
// parent's (a dry run) and it is shown as a table, destructive steps called out by a badge, a
// colour and words; applying a destructive plan needs the box ticked. Content never moves.
import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../components/PageState.tsx';
import { promoteEnvironment, usePromoteEnvironment, type PromoteAnswer, type PromoteStep } from '../api/promote-environment.ts';

const WORDS: Record<string, string> = {
  createContentType: 'Create content type', dropContentType: 'Delete content type', createComponent: 'Create component',
  dropComponent: 'Delete component', addAttribute: 'Add field', dropAttribute: 'Delete field', renameAttribute: 'Rename field',
};

/** A step's kind in words ("addAttribute" → "Add field"; an unknown kind split into words). */
function kindLabel(kind: string): string {
  if (WORDS[kind]) return WORDS[kind];
  const words = kind.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function PromoteModal({ parent, parentName, name, opened, onClose }: { parent: string; parentName: string; name: string; opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Promote model to production" size="xl">
      {opened && <Promote parent={parent} parentName={parentName} name={name} onClose={onClose} />}
    </Modal>
  );
}

function PlanTable({ steps }: { steps: PromoteStep[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Promotion plan">
        <Table.Thead>
          <Table.Tr><Table.Th>Step</Table.Th><Table.Th>Type</Table.Th><Table.Th>Field</Table.Th><Table.Th>Effect</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {steps.map((s, i) => (
            <Table.Tr key={i} data-destructive={s.destructive} bg={s.destructive ? 'red.0' : undefined}>
              <Table.Td>{s.description ?? kindLabel(s.kind)}</Table.Td>
              <Table.Td><code>{s.uid}</code></Table.Td>
              <Table.Td>{s.attribute ? <code>{s.attribute}</code> : '—'}</Table.Td>
              <Table.Td>
                {s.destructive
                  ? <Badge color="red.9" variant="outline">Deletes data</Badge>
                  : <Text size="sm" c="dimmed">Keeps data</Text>}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Promote({ parent, parentName, name, onClose }: { parent: string; parentName: string; name: string; onClose(): void }) {
  const promote = usePromoteEnvironment(parent, name);
  const [plan, setPlan] = useState<PromoteAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [understood, setUnderstood] = useState(false);
  const [applying, setApplying] = useState(false);
  const [applied, setApplied] = useState<PromoteAnswer | null>(null);

  useEffect(() => {
    let live = true;
    promoteEnvironment(parent, name, { dryRun: true }).then((p) => live && setPlan(p), (err: unknown) => live && setError(err));
    return () => {
      live = false;
    };
  }, [parent, name]);

  const steps = plan?.plan.steps ?? [];
  const destructive = steps.filter((s) => s.destructive).length;

  async function apply() {
    setApplying(true);
    setError(null);
    try {
      setApplied(await promote.mutateAsync(destructive ? { confirm: true } : {}));
    } catch (err) {
      setError(err);
    } finally {
      setApplying(false);
    }
  }

  if (applied) {
    const n = applied.plan.steps.length;
    return (
      <Stack>
        <Alert color="teal" role="status" title="Promoted">
          {parentName} now has the model of {name} ({n} step{n === 1 ? '' : 's'} applied). No content was copied
          {applied.backup ? '; a backup of it was taken first (Settings → Backups)' : ''}.
        </Alert>
        <PlanTable steps={applied.plan.steps} />
        <Group justify="flex-end"><Button onClick={onClose}>Close</Button></Group>
      </Stack>
    );
  }
  return (
    <Stack>
      <Text size="sm">
        Makes the model of {parentName} (production) equal to {name}'s: the same migration as applying it in the content-type builder.
        Content never moves; a backup of {parentName} is taken first.
      </Text>
      {error !== null && <Alert color="red" role="alert" title={plan ? 'Could not promote the model' : 'Could not plan the promotion'}>{errorMessage(error)}</Alert>}
      {!plan && error === null && <Group role="status"><Loader size="sm" aria-hidden /><Text size="sm">Planning the promotion…</Text></Group>}
      {plan && !plan.plan.changed && <Text size="sm" role="status">The models are equal: there is nothing to promote.</Text>}
      {plan && plan.plan.changed && steps.length === 0 && (
        <Text size="sm" role="status">The models differ only in names and options, which store nothing: promoting changes no table.</Text>
      )}
      {plan && steps.length > 0 && <PlanTable steps={steps} />}
      {destructive > 0 && (
        <Alert color="red" title={destructive === 1 ? '1 step deletes data in production' : `${destructive} steps delete data in production`}>
          <Stack gap="xs">
            <Text size="sm">
              The steps marked “Deletes data” delete what {parentName} stores in them, in every entry and locale. The backup taken first is the
              only way back.
            </Text>
            <Checkbox label={`I understand that data of ${parentName} will be deleted`} checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
          </Stack>
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>Cancel</Button>
        <Button
          onClick={apply} loading={applying} disabled={!plan || !plan.plan.changed || (destructive > 0 && !understood)}
          color={destructive ? 'red' : undefined}
        >
          Apply to production
        </Button>
      </Group>
    </Stack>
  );
}
