// The page of the link mailed at signup (`/verify-email?token=…`): verifies the address once on
// load, signed in or not, and tells the outcome.
import { Alert, Button, Container, Paper, Stack, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageLoader, errorMessage } from '../components/PageState.tsx';
import { useAccount } from '../features/auth/api/get-session.ts';
import { useVerifyEmail } from '../features/auth/api/verify-email.ts';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const me = useAccount();
  const verify = useVerifyEmail();
  // A link works once: post it once, even when StrictMode runs effects twice.
  const posted = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    mutate(token);
  }, [mutate, token]);
  const signedIn = Boolean(me.data);
  return (
    <Container size={480} py={60} component="main">
      <Title order={1} ta="center">E-mail verification</Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        {verify.isSuccess ? (
          <Stack>
            <Alert color="teal" title="Your e-mail address is verified" role="status">
              Thank you: {verify.data.email} is confirmed.
            </Alert>
            <Button component={Link} to={signedIn ? '/projects' : '/login'} w="fit-content">{signedIn ? 'Go to your projects' : 'Log in'}</Button>
          </Stack>
        ) : verify.isError ? (
          <Stack>
            <Alert color="red" title="The address could not be verified" role="alert">{errorMessage(verify.error)}</Alert>
            {me.data && !me.data.emailVerified && <Alert color="gray" role="note" aria-label="New link">Use “Send the link again” on your projects page to get a new link.</Alert>}
            <Button component={Link} to={signedIn ? '/projects' : '/login'} variant="default" w="fit-content">
              {signedIn ? 'Go to your projects' : 'Log in'}
            </Button>
          </Stack>
        ) : (
          <PageLoader label="Verifying your e-mail address…" />
        )}
      </Paper>
    </Container>
  );
}
