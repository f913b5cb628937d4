// On every page of an environment: whose copy it is, that its changes stay here, a link to the
// parent's same page and (owners) "Promote model to production".
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { Project } from '../../projects/api/get-project.ts';
import { environmentOf, titleOf } from '../environment-of.ts';
import { samePageIn } from './EnvironmentSwitcher.tsx';
import { PromoteModal } from './PromoteModal.tsx';

export function EnvironmentBanner({ project }: { project: Project }) {
  const env = environmentOf(project);
  const location = useLocation();
  const [promoting, setPromoting] = useState(false);
  if (!env) return null;
  const { parent } = env;
  return (
    <Alert color="orange" variant="light" role="region" aria-label="Environment" p="xs" data-testid="environment-banner">
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm" fw={500}>{titleOf(env.name)} copy of {parent.name} — changes here do not reach production</Text>
        <Group gap="sm">
          <Anchor component={Link} to={samePageIn(location.pathname, project.slug, parent.slug)} size="sm">Open {parent.name}</Anchor>
          {project.role === 'owner' && (
            <Button size="compact-sm" variant="default" onClick={() => setPromoting(true)}>Promote model to production</Button>
          )}
        </Group>
      </Group>
      <PromoteModal parent={parent.slug} parentName={parent.name} name={env.name} opened={promoting} onClose={() => setPromoting(false)} />
    </Alert>
  );
}
