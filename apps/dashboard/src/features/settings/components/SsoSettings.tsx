// Single sign-on on the project's Settings page (docs/single-sign-on.md): owners of an enterprise
// project connect their OpenID Connect provider — issuer, client id and secret (write-only: only
// whether it is set is shown), the e-mail domain and the role of members created by their first
// sign-in — see the callback URL to register at the provider, and prove the domain (a DNS TXT
// record) before anyone can sign in.
import { Alert, Anchor, Button, Card, Group, Paper, PasswordInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { CodeBlock } from '../../../components/CodeBlock.tsx';
import { ConfirmModal } from '../../../components/ConfirmModal.tsx';
import { PageError, PageLoader } from '../../../components/PageState.tsx';
import { reportFormError } from '../../../lib/api-error.ts';
import type { Project } from '../../projects/api/get-project.ts';
import { useDeleteSso } from '../api/delete-sso.ts';
import { useSso, type SsoAnswer, type SsoConnection } from '../api/get-sso.ts';
import { useUpdateSso } from '../api/update-sso.ts';
import { useVerifySsoDomain } from '../api/verify-sso-domain.ts';

const TITLE = 'Single sign-on';

export function SsoSettings({ project, isOwner }: { project: Project; isOwner: boolean }) {
  if (!isOwner) return null;
  if (project.plan !== 'enterprise') {
    return (
      <Card withBorder>
        <Title order={3} size="h4" mb="sm">{TITLE}</Title>
        <Text size="sm">
          Single sign-on with your identity provider (OpenID Connect) is part of the enterprise plan.{' '}
          <Anchor component={Link} to={`/projects/${project.slug}/billing`}>See the plans</Anchor>
        </Text>
      </Card>
    );
  }
  return <SsoConnectionCard slug={project.slug} />;
}

function SsoConnectionCard({ slug }: { slug: string }) {
  const answer = useSso(slug);
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">{TITLE}</Title>
      {answer.isPending && <PageLoader label="Loading single sign-on…" />}
      {answer.isError && <PageError error={answer.error} />}
      {answer.data && <SsoForm slug={slug} answer={answer.data} />}
    </Card>
  );
}

function SsoForm({ slug, answer }: { slug: string; answer: SsoAnswer }) {
  const save = useUpdateSso(slug);
  const remove = useDeleteSso(slug);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  const current = answer.sso;
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: {
      issuer: current?.issuer ?? '', clientId: current?.clientId ?? '', clientSecret: '', emailDomain: current?.emailDomain ?? '', defaultRole: current?.defaultRole ?? 'viewer',
    },
  });
  const submit = form.onSubmit(async (values) => {
    setError(null);
    try {
      const { clientSecret, ...rest } = values;
      await save.mutateAsync(clientSecret ? { ...rest, clientSecret } : rest);
      form.setFieldValue('clientSecret', '');
      notifications.show({ color: 'teal', message: 'Single sign-on saved' });
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not save');
    }
  });
  return (
    <Stack maw={560}>
      <Text size="sm">
        Let your team sign in with your identity provider (OpenID Connect). Register a web application there with this
        callback (redirect) URL, the authorization code grant and refresh tokens:
      </Text>
      <CodeBlock label="Callback URL" code={answer.callbackUrl} />
      <form onSubmit={submit} aria-label={TITLE} noValidate>
        <Stack>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <TextInput label="Issuer URL" placeholder="https://login.example.com" required key={form.key('issuer')} {...form.getInputProps('issuer')} />
          <TextInput label="Client ID" required key={form.key('clientId')} {...form.getInputProps('clientId')} />
          <PasswordInput
            label="Client secret" required={!current} autoComplete="off"
            description={current?.clientSecretSet ? 'Set — leave empty to keep it' : 'Not set'}
            key={form.key('clientSecret')} {...form.getInputProps('clientSecret')}
          />
          <TextInput label="E-mail domain" placeholder="example.com" required description="Addresses of this domain sign in through your provider"
            key={form.key('emailDomain')} {...form.getInputProps('emailDomain')} />
          <Select label="Role of new members" description="Given to an account created by its first sign-in" allowDeselect={false}
            data={[{ value: 'viewer', label: 'Viewer' }, { value: 'editor', label: 'Editor' }]}
            key={form.key('defaultRole')} {...form.getInputProps('defaultRole')} />
          <Group>
            <Button type="submit" loading={form.submitting}>Save single sign-on</Button>
            {current && <Button color="red" variant="light" onClick={() => setRemoving(true)}>Remove</Button>}
          </Group>
        </Stack>
      </form>
      {current && <DomainProof slug={slug} connection={current} />}
      <ConfirmModal
        opened={removing} onClose={() => setRemoving(false)} title="Remove single sign-on" confirmLabel="Remove single sign-on"
        onConfirm={async () => {
          await remove.mutateAsync();
          form.setValues({ issuer: '', clientId: '', clientSecret: '', emailDomain: '', defaultRole: 'viewer' });
        }}
      >
        Everyone signed in through your provider is signed out at once, and nobody of {current?.emailDomain} can sign in with it any more.
      </ConfirmModal>
    </Stack>
  );
}

/** The TXT record proving the domain, and the button that checks it (sign-in works once it is proved). */
function DomainProof({ slug, connection }: { slug: string; connection: SsoConnection }) {
  const verifyDomain = useVerifySsoDomain(slug);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const { name, value, verified } = connection.domainVerification;
  if (verified) return <Text size="sm" role="status" aria-label="Domain verified">✓ {connection.emailDomain} is verified: its addresses can sign in with SSO.</Text>;
  async function verify() {
    setError(null);
    setChecking(true);
    try {
      await verifyDomain.mutateAsync();
      notifications.show({ color: 'teal', message: 'Domain verified' });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Could not verify the domain');
    } finally {
      setChecking(false);
    }
  }
  return (
    <Paper withBorder p="md" component="section" aria-label="Verify your domain">
      <Stack gap="xs">
        <Text fw={600}>Verify {connection.emailDomain}</Text>
        <Text size="sm">Nobody can sign in with SSO until you prove that you hold this domain: add this TXT record to its DNS, then verify.</Text>
        <CodeBlock label="TXT record name" code={name} />
        <CodeBlock label="TXT record value" code={value} />
        {error && <Text size="sm" c="red" role="alert">{error}</Text>}
        <Button w="fit-content" onClick={verify} loading={checking}>Verify domain</Button>
      </Stack>
    </Paper>
  );
}
