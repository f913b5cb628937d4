// "Sign in with SSO" on the login page (docs/single-sign-on.md): the work e-mail finds the project
// connection of its domain, and the browser goes to that identity provider; when the provider's
// answer is refused, the platform sends the browser back here with `sso_error`, said above.
import { Alert, Button, Divider, Paper, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStartSsoLogin } from '../features/auth/api/start-sso-login.ts';
import { reportFormError } from '../lib/api-error.ts';

/** The platform's refusal codes (`/login?sso_error=…`) and what they mean for the visitor. */
const SSO_ERRORS: Record<string, string> = {
  expired: 'The single sign-on attempt expired or was started in another browser. Please start again.',
  failed: 'The answer of your identity provider could not be verified. Please start again.',
  denied: 'Your identity provider did not sign you in.',
  unverified: 'Your identity provider did not confirm your e-mail address.',
  domain: 'Your e-mail address at your identity provider is not in the domain this single sign-on is for.',
  taken: 'An account with this e-mail address already exists and signs in with its password: log in with your password above.',
  offline: 'Your identity provider issued no refresh token: its administrator must allow offline access for this application.',
  unavailable: 'Single sign-on is not available for this e-mail address.',
};

export function SsoLoginSection() {
  const [params] = useSearchParams();
  const refused = params.get('sso_error');
  const startSso = useStartSsoLogin();
  const [open, setOpen] = useState(refused !== null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v) ? null : 'Enter your work e-mail address') },
  });
  const submit = form.onSubmit(async ({ email }) => {
    setFormError(null);
    try {
      window.location.assign(await startSso.mutateAsync(email));
    } catch (err) {
      reportFormError(err, form.setErrors, setFormError, 'Something went wrong');
    }
  });
  return (
    <>
      <Divider label="or" labelPosition="center" my="md" />
      {refused !== null && <Alert color="red" role="alert" aria-label="Single sign-on refused" mb="md">{SSO_ERRORS[refused] ?? SSO_ERRORS.failed}</Alert>}
      {!open && <Button variant="default" fullWidth onClick={() => setOpen(true)}>Sign in with SSO</Button>}
      {open && (
        <Paper withBorder shadow="sm" p="lg">
          <form onSubmit={submit} noValidate aria-label="Sign in with SSO">
            <Stack>
              {formError && <Alert color="red" role="alert">{formError}</Alert>}
              <TextInput label="Work e-mail" type="email" autoComplete="email" required key={form.key('email')} {...form.getInputProps('email')} />
              <Button type="submit" loading={form.submitting}>Continue with SSO</Button>
            </Stack>
          </form>
        </Paper>
      )}
    </>
  );
}
