// Login's second step, after the API answered 401 TwoFactorRequired to the right password: the
// 6-digit code from the authenticator app, or one of the recovery codes.
import { Alert, Anchor, Button, Container, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useLogin } from '../features/auth/api/login.ts';
import { ApiError } from '../lib/api-error.ts';

export interface Credentials { email: string; password: string }

export function TwoFactorLoginStep({ credentials, onSignedIn, onBack }: {
  credentials: Credentials;
  /** Signed in: the previous account's cache is forgotten by then. */
  onSignedIn: () => void;
  onBack: () => void;
}) {
  const login = useLogin();
  const [recovery, setRecovery] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ initialValues: { code: '' }, validate: { code: (v) => (v.trim() ? null : 'Enter the code') } });
  const submit = form.onSubmit(async ({ code }) => {
    setFormError(null);
    try {
      await login.mutateAsync({ ...credentials, code: code.trim() });
      onSignedIn();
    } catch (err) {
      // A wrong or used code: said next to the field; anything else (a lockout, the network) above.
      if (err instanceof ApiError && err.errorName === 'TwoFactorRequired') form.setErrors({ code: err.message });
      else setFormError(err instanceof Error ? err.message : 'Something went wrong');
    }
  });
  return (
    <Container size={420} py={60} component="main">
      <Title order={1} ta="center">Two-factor authentication</Title>
      <Text c="dimmed" size="sm" ta="center" mt={5}>
        {recovery ? 'Enter one of the recovery codes you saved. Each works once.' : 'Enter the 6-digit code from your authenticator app.'}
      </Text>
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        <form onSubmit={submit} noValidate aria-label="Two-factor code">
          <Stack>
            {formError && <Alert color="red" role="alert">{formError}</Alert>}
            <TextInput
              label={recovery ? 'Recovery code' : 'Authentication code'} required autoFocus autoComplete="one-time-code"
              inputMode={recovery ? 'text' : 'numeric'} key={form.key('code')} {...form.getInputProps('code')}
            />
            <Button type="submit" loading={form.submitting}>Verify</Button>
            <Anchor component="button" type="button" size="sm" w="fit-content" onClick={() => { setRecovery(!recovery); form.reset(); }}>
              {recovery ? 'Use a code from the app' : 'Use a recovery code'}
            </Anchor>
            <Anchor component="button" type="button" size="sm" w="fit-content" onClick={onBack}>Back to log in</Anchor>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
