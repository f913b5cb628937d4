// The page of the link mailed at signup (`/verify-email?token=…`): verifies the address once on
// load, signed in or not, and tells the outcome.
import { Alert, Button, Container, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type Account } from '../api.ts';
import { PageLoader, errorMessage } from '../components/PageState.tsx';
import { ME_KEY, useAccount } from '../session.ts';

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const client = useQueryClient();
  const me = useAccount();
  const verify = useMutation({
    mutationFn: async () => (await api<{ account: Account }>('POST', '/v1/auth/verify-email', { token })).account,
    // Signed in as that account, it (and its banner) follows at once, not after a refetch; a read
    // of the account still on its way (the page's first, sent before the address was verified)
    // is cancelled first, so it cannot put the unverified account back.
    onSuccess: async (verified) => {
      await client.cancelQueries({ queryKey: ME_KEY });
      client.setQueryData<Account | null>(ME_KEY, (current) => (current?.id === verified.id ? verified : current));
      return client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  // A link works once: post it once, even when StrictMode runs effects twice.
  const posted = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    mutate();
  }, [mutate]);
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
