// An environment's team and billing are its parent's (the API refuses changes to them on the
// environment): their sections leave its navigation, and their pages, opened by address, say so
// with a link to the parent's.
import { Alert, Anchor, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import type { Project } from '../../projects/api/get-project.ts';
import { environmentOf } from '../environment-of.ts';

const PARENT_ONLY: Record<string, string> = { team: 'team', billing: 'billing' };

/** Whether the project's section `to` (a path under the project, '' for its overview) is shown. */
export function sectionShown(project: Project, to: string): boolean {
  return !environmentOf(project) || !(to in PARENT_ONLY);
}

/** The page, or on an environment's team and billing pages a note pointing at the parent's. */
export function ParentOnlyGate({ project, children }: { project: Project; children: ReactNode }) {
  const env = environmentOf(project);
  const { pathname } = useLocation();
  const section = pathname.slice(`/projects/${project.slug}/`.length).split('/')[0] ?? '';
  if (!env || !(section in PARENT_ONLY)) return <>{children}</>;
  const { parent } = env;
  return (
    <Alert color="gray" role="note" title={`The ${PARENT_ONLY[section]} of ${parent.name}`}>
      <Text size="sm">
        An environment has no {PARENT_ONLY[section]} of its own: its members and plan are those of {parent.name}.{' '}
        <Anchor component={Link} to={`/projects/${parent.slug}/${section}`}>Open the {PARENT_ONLY[section]} of {parent.name}</Anchor>
      </Text>
    </Alert>
  );
}
