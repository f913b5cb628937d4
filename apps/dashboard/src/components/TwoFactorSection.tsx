// The Account page's "Two-factor authentication" section (docs/two-factor.md): turning it on (the
// authenticator's QR code, drawn here from the otpauth URL — never by a third-party service — and
// the secret as text, then a code to confirm, then the ten recovery codes shown once, to copy or
// download) and off (with a code or a recovery code).
import { Alert, Badge, Button, Card, Code, Group, Image, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useDisableTwoFactor } from '../features/account/api/disable-two-factor.ts';
import { useEnableTwoFactor } from '../features/account/api/enable-two-factor.ts';
import { useTwoFactor, type TwoFactorStatus } from '../features/account/api/get-two-factor.ts';
import { useSetupTwoFactor, type TwoFactorSetup } from '../features/account/api/setup-two-factor.ts';
import { reportFormError } from '../lib/api-error.ts';
import { PageError, PageLoader } from './PageState.tsx';

/** The secret in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

function useCodeForm() {
  return useForm({ initialValues: { code: '' }, validate: { code: (v) => (v.trim() ? null : 'Enter a code') } });
}

function QrImage({ url }: { url: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(url, { margin: 1, width: 200 }).then((data) => live && setSrc(data), () => live && setSrc(null));
    return () => { live = false; };
  }, [url]);
  return src ? <Image src={src} w={200} h={200} alt="QR code to scan with your authenticator app" /> : null;
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      notifications.show({ color: 'teal', message: 'Recovery codes copied' });
    } catch {
      notifications.show({ color: 'red', message: 'Could not copy: select the codes and copy them by hand' });
    }
  }
  function download() {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  }
  return (
    <Stack maw={480}>
      <Alert color="teal" title="Two-factor authentication is on" role="status">
        Save these recovery codes somewhere safe. Each one signs you in once if you lose your authenticator. They are shown only now.
      </Alert>
      <List aria-label="Recovery codes" listStyleType="none" ff="monospace" spacing={2}>
        {codes.map((c) => <List.Item key={c}>{c}</List.Item>)}
      </List>
      <Group>
        <Button variant="default" onClick={copy}>Copy codes</Button>
        <Button variant="default" onClick={download}>Download codes</Button>
        <Button onClick={onDone}>I have saved my codes</Button>
      </Group>
    </Stack>
  );
}

function TurnOn({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const setupTwoFactor = useSetupTwoFactor();
  const enableTwoFactor = useEnableTwoFactor();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useCodeForm();
  async function start() {
    setError(null);
    try {
      setSetup(await setupTwoFactor.mutateAsync());
    } catch (err) {
      setError((err as Error).message);
    }
  }
  const confirm = form.onSubmit(async ({ code }) => {
    setError(null);
    try {
      onEnabled(await enableTwoFactor.mutateAsync(code.trim()));
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not turn on two-factor authentication');
    }
  });
  if (!setup) {
    return (
      <Stack maw={480} align="flex-start">
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Text size="sm">Sign-ins will also ask for a 6-digit code from an authenticator app on your phone.</Text>
        <Button onClick={start} loading={setupTwoFactor.isPending}>Turn on two-factor authentication</Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={confirm} noValidate aria-label="Confirm two-factor authentication">
      <Stack maw={480}>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Text size="sm">1. Scan this QR code with your authenticator app, or type in the secret key.</Text>
        <QrImage url={setup.otpauthUrl} />
        <Text size="sm">Secret key: <Code>{grouped(setup.secret)}</Code></Text>
        <TextInput
          label="2. Enter the 6-digit code the app shows" autoComplete="one-time-code" inputMode="numeric" maxLength={6}
          key={form.key('code')} {...form.getInputProps('code')}
        />
        <Button type="submit" w="fit-content" loading={form.submitting}>Confirm and turn on</Button>
      </Stack>
    </form>
  );
}

function TurnOff({ status, onDisabled }: { status: TwoFactorStatus; onDisabled: () => void }) {
  const disableTwoFactor = useDisableTwoFactor();
  const [error, setError] = useState<string | null>(null);
  const form = useCodeForm();
  const submit = form.onSubmit(async ({ code }) => {
    setError(null);
    try {
      await disableTwoFactor.mutateAsync(code.trim());
      form.reset();
      onDisabled();
    } catch (err) {
      reportFormError(err, form.setErrors, setError, 'Could not turn off two-factor authentication');
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Turn off two-factor authentication">
      <Stack maw={480}>
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Text size="sm">Recovery codes left: {status.recoveryCodesLeft}</Text>
        <TextInput label="Code from your app, or a recovery code" autoComplete="one-time-code" key={form.key('code')} {...form.getInputProps('code')} />
        <Button type="submit" color="red" variant="light" w="fit-content" loading={form.submitting}>Turn off two-factor authentication</Button>
      </Stack>
    </form>
  );
}

export function TwoFactorSection() {
  const status = useTwoFactor();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  return (
    <Card withBorder>
      <Group mb="sm">
        <Title order={2} size="h4">Two-factor authentication</Title>
        {status.data && <Badge variant="light">{status.data.enabled ? 'On' : 'Off'}</Badge>}
      </Group>
      {status.isPending && <PageLoader label="Loading…" />}
      {status.isError && <PageError error={status.error} />}
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />}
      {!recoveryCodes && status.data && !status.data.enabled && (
        <TurnOn onEnabled={setRecoveryCodes} />
      )}
      {!recoveryCodes && status.data?.enabled && (
        <TurnOff status={status.data} onDisabled={() => notifications.show({ color: 'teal', message: 'Two-factor authentication is off' })} />
      )}
    </Card>
  );
}
