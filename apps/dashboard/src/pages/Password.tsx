// A forgotten password: ask for a link by e-mail (the answer never tells whether the address has
// an account), then choose a new password on the mailed link's page (`/reset-password?token=…`).
import { Alert, Anchor, Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useForgotPassword } from '../features/auth/api/forgot-password.ts';
import { useResetPassword } from '../features/auth/api/reset-password.ts';
import { ApiError } from '../lib/api-error.ts';
import { PASSWORD_MIN } from './Auth.tsx';

export function ForgotPasswordPage() {
  const forgotPassword = useForgotPassword();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter a valid e-mail address') },
  });
  const submit = form.onSubmit(async ({ email }) => {
    setFormError(null);
    try {
      await forgotPassword.mutateAsync(email.trim());
      setSentTo(email.trim());
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (fields.email) form.setErrors({ email: fields.email });
      else setFormError(err instanceof Error ? err.message : 'Something went wrong');
    }
  });
  return (
    <Container size={420} py={60} component="main">
      <Title order={1} ta="center">Forgot your password?</Title>
      <Text c="dimmed" size="sm" ta="center" mt={5}>
        Remembered it? <Anchor component={Link} to="/login">Log in</Anchor>
      </Text>
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        {sentTo !== null ? (
          <Stack>
            <Alert color="teal" title="Check your inbox" role="status">
              If an account exists for {sentTo}, we sent a link to choose a new password. It works once, within an hour.
            </Alert>
            <Anchor component={Link} to="/login" size="sm">Back to log in</Anchor>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate aria-label="Reset your password">
            <Stack>
              <Text size="sm">Enter the e-mail address of your account: we send you a link to choose a new password.</Text>
              {formError && <Alert color="red" role="alert">{formError}</Alert>}
              <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
              <Button type="submit" loading={form.submitting}>Send the link</Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Container>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const resetPassword = useResetPassword();
  const [done, setDone] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { password: '' },
    validate: { password: (v) => (v.length < PASSWORD_MIN ? `Use at least ${PASSWORD_MIN} characters` : null) },
  });
  const submit = form.onSubmit(async ({ password }) => {
    setFormError(null);
    try {
      // Every session of the account ends, this browser's included (its cache is forgotten).
      await resetPassword.mutateAsync({ token, password });
      setDone(true);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors() : {};
      if (fields.token) setLinkError(fields.token);
      else if (fields.password) form.setErrors({ password: fields.password });
      else setFormError(err instanceof Error ? err.message : 'Something went wrong');
    }
  });
  return (
    <Container size={480} py={60} component="main">
      <Title order={1} ta="center">Choose a new password</Title>
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        {done ? (
          <Stack>
            <Alert color="teal" title="Your password was changed" role="status">
              Every session of your account was logged out. Log in with your new password.
            </Alert>
            <Button component={Link} to="/login" w="fit-content">Log in</Button>
          </Stack>
        ) : linkError ? (
          <Stack>
            <Alert color="red" title="This link cannot be used" role="alert">{linkError}</Alert>
            <Anchor component={Link} to="/forgot-password" size="sm">Ask for a new link</Anchor>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate aria-label="Choose a new password">
            <Stack>
              {formError && <Alert color="red" role="alert">{formError}</Alert>}
              <PasswordInput
                label="New password" autoComplete="new-password" required description={`At least ${PASSWORD_MIN} characters`}
                key={form.key('password')} {...form.getInputProps('password')}
              />
              <Button type="submit" loading={form.submitting}>Set the new password</Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Container>
  );
}
