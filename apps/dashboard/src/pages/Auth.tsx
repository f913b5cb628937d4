// Sign-up and login: labelled fields, the password rule shown up front, the API's field errors
// next to their field and any other error above the form. Both return to the page the visitor
// came from (`state.from`, e.g. an invitation link), also when going from one to the other.
import { Alert, Anchor, Button, Container, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useLogin } from '../features/auth/api/login.ts';
import { useSignup } from '../features/auth/api/signup.ts';
import { ApiError, reportFormError } from '../lib/api-error.ts';
import { TwoFactorLoginStep, type Credentials } from './TwoFactorLogin.tsx';
import { SsoLoginSection } from './SsoLogin.tsx';

export const PASSWORD_MIN = 8;

/** Where to go after signing in: `state.from` when it is a path of this app. */
export function returnPath(state: unknown): string | null {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : null;
}

/** Said above the form when the visitor came from an invitation link. */
function InvitationHint({ from }: { from: string | null }) {
  if (!from?.startsWith('/invitations/accept')) return null;
  return <Alert color="indigo" role="note" aria-label="Invitation" mt="lg">Log in or sign up to accept your invitation: you come back to it afterwards.</Alert>;
}

/**
 * The login or the sign-up form (`withName`). `onTwoFactor`: login's answer was 401
 * TwoFactorRequired (the password was right): ask for the code.
 */
function useSessionForm(withName: boolean, onTwoFactor?: (credentials: Credentials) => void) {
  const login = useLogin();
  const signup = useSignup();
  const navigate = useNavigate();
  const location = useLocation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '', name: '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v) ? null : 'Enter a valid e-mail address'),
      password: (v) => (withName && v.length < PASSWORD_MIN ? `Use at least ${PASSWORD_MIN} characters` : v ? null : 'Enter your password'),
    },
  });
  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const credentials = { email: values.email, password: values.password };
      if (withName) await signup.mutateAsync({ ...credentials, ...(values.name ? { name: values.name } : {}) });
      else await login.mutateAsync(credentials);
      signedIn();
    } catch (err) {
      if (onTwoFactor && err instanceof ApiError && err.errorName === 'TwoFactorRequired') onTwoFactor({ email: values.email, password: values.password });
      else reportFormError(err, form.setErrors, setFormError, 'Something went wrong');
    }
  });
  /** Signed in (the previous account's cache is forgotten by then): back where the visitor was going. */
  function signedIn() {
    navigate(returnPath(location.state) ?? '/projects', { replace: true });
  }
  return { form, submit, formError, signedIn };
}

export function LoginPage() {
  const [twoFactor, setTwoFactor] = useState<Credentials | null>(null);
  const { form, submit, formError, signedIn } = useSessionForm(false, setTwoFactor);
  const { state } = useLocation();
  if (twoFactor) return <TwoFactorLoginStep credentials={twoFactor} onSignedIn={signedIn} onBack={() => setTwoFactor(null)} />;
  return (
    <Container size={420} py={60} component="main">
      <Title order={1} ta="center">Log in</Title>
      <Text c="dimmed" size="sm" ta="center" mt={5}>
        No account yet? <Anchor component={Link} to="/signup" state={state}>Sign up</Anchor>
      </Text>
      <InvitationHint from={returnPath(state)} />
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        <form onSubmit={submit} noValidate aria-label="Log in">
          <Stack>
            {formError && <Alert color="red" role="alert">{formError}</Alert>}
            <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
            <PasswordInput label="Password" autoComplete="current-password" required key={form.key('password')} {...form.getInputProps('password')} />
            <Anchor component={Link} to="/forgot-password" size="sm" w="fit-content">Forgot your password?</Anchor>
            <Button type="submit" loading={form.submitting}>Log in</Button>
          </Stack>
        </form>
      </Paper>
      <SsoLoginSection />
    </Container>
  );
}

export function SignupPage() {
  const { form, submit, formError } = useSessionForm(true);
  const { state } = useLocation();
  return (
    <Container size={420} py={60} component="main">
      <Title order={1} ta="center">Create your account</Title>
      <Text c="dimmed" size="sm" ta="center" mt={5}>
        Already have one? <Anchor component={Link} to="/login" state={state}>Log in</Anchor>
      </Text>
      <InvitationHint from={returnPath(state)} />
      <Paper withBorder shadow="sm" p="lg" mt="lg">
        <form onSubmit={submit} noValidate aria-label="Sign up">
          <Stack>
            {formError && <Alert color="red" role="alert">{formError}</Alert>}
            <TextInput label="Name" autoComplete="name" key={form.key('name')} {...form.getInputProps('name')} />
            <TextInput label="E-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
            <PasswordInput
              label="Password" autoComplete="new-password" required description={`At least ${PASSWORD_MIN} characters`}
              key={form.key('password')} {...form.getInputProps('password')}
            />
            <Button type="submit" loading={form.submitting}>Sign up</Button>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
