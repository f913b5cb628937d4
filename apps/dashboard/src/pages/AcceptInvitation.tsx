// The page of an invitation link (`/invitations/accept?token=…`): a visitor logs in or signs up
// first and comes back here; signed in, the invitation is accepted once and the project opens.
import { Alert, Button, Container, Paper, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageError, PageLoader, errorMessage } from '../components/PageState.tsx';
import { useAcceptInvitation } from '../features/auth/api/accept-invitation.ts';
import { useAccount } from '../features/auth/api/get-session.ts';

function Accept({ token }: { token: string }) {
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  // An invitation works once: post it once, even when StrictMode runs effects twice.
  const posted = useRef(false);
  const { mutateAsync } = accept;
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    mutateAsync(token).then((project) => {
      notifications.show({ color: 'teal', title: `You joined ${project.name}`, message: `Your role: ${project.role}` });
      navigate(`/projects/${project.slug}`, { replace: true });
    }, () => { /* said below, from accept.error */ });
  }, [mutateAsync, token, navigate]);
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
