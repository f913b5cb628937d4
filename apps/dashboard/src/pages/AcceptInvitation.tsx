// The page of an invitation link (`/invitations/accept?token=…`): a visitor logs in or signs up
// first and comes back here; signed in, the invitation is accepted once and the project opens.
import { Alert, Button, Container, Paper, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { api, type Project } from '../api.ts';
import { PageError, PageLoader, errorMessage } from '../components/PageState.tsx';
import { projectKey } from '../project.ts';
import { useAccount } from '../session.ts';
import { PROJECTS_KEY } from './Projects.tsx';

function Accept({ token }: { token: string }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const accept = useMutation({
    mutationFn: async () => (await api<{ project: Project }>('POST', '/v1/invitations/accept', { token })).project,
    onSuccess: async (project) => {
      client.setQueryData(projectKey(project.slug), project);
      await client.invalidateQueries({ queryKey: PROJECTS_KEY });
      notifications.show({ color: 'teal', title: `You joined ${project.name}`, message: `Your role: ${project.role}` });
      navigate(`/projects/${project.slug}`, { replace: true });
    },
  });
  // An invitation works once: post it once, even when StrictMode runs effects twice.
  const posted = useRef(false);
  const { mutate } = accept;
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    mutate();
  }, [mutate]);
  return (
    <Container size={480} py={60} component="main">
      <Title order={1} ta="center">Invitation</Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        {accept.isError ? (
          <Stack>
            <Alert color="red" title="The invitation could not be accepted" role="alert">{errorMessage(accept.error)}</Alert>
            <Button component={Link} to="/projects" variant="default" w="fit-content">Go to your projects</Button>
          </Stack>
        ) : (
          <PageLoader label="Accepting the invitation…" />
        )}
      </Paper>
    </Container>
  );
}

export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const me = useAccount();
  if (me.isPending) return <PageLoader />;
  if (me.isError) return <PageError error={me.error} />;
  if (!me.data) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return <Accept token={params.get('token') ?? ''} />;
}
