// "New environment": asks the name (the contract's rule, checked before sending), starts the copy,
// then follows it in the same window: copying, ready (with a link to open it) or failed with why.
import { Alert, Anchor, Button, Code, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../components/PageState.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { ENVIRONMENT_NAME, NAME_RULE, useCreateEnvironment } from '../api/create-environment.ts';
import { useEnvironments, type Environment } from '../api/get-environments.ts';

export function NewEnvironmentModal({ parent, parentName, opened, onClose }: { parent: string; parentName: string; opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="New environment">
      {opened && <NewEnvironment parent={parent} parentName={parentName} onClose={onClose} />}
    </Modal>
  );
}

function NewEnvironment({ parent, parentName, onClose }: { parent: string; parentName: string; onClose(): void }) {
  const create = useCreateEnvironment(parent);
  const list = useEnvironments(parent);
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);

  const submit = () => {
    if (!ENVIRONMENT_NAME.test(name)) return setInvalid(NAME_RULE);
    setInvalid(null);
    create.mutate(name, { onSuccess: (env) => setStarted(env.name) });
  };

  if (started) {
    const env = list.data?.find((e) => e.name === started) ?? create.data;
    return env ? <CopyProgress env={env} parentName={parentName} onClose={onClose} /> : <Loader size="sm" aria-label="Loading" />;
  }
  // The API's refusal of the name goes on the field; others (the plan's limit, say) above the form.
  const fieldError = create.error instanceof ApiError ? create.error.fieldErrors().name : undefined;
  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label="New environment" noValidate>
      <Stack>
        <Text size="sm">
          A copy of {parentName} — its model, content, media, locales, roles and settings — to change without touching production.
          API tokens, webhooks and history are not copied.
        </Text>
        {create.isError && !fieldError && <Alert color="red" role="alert" title="Could not create the environment">{errorMessage(create.error)}</Alert>}
        <TextInput
          label="Name" required data-autofocus value={name} autoComplete="off"
          onChange={(e) => { setName(e.currentTarget.value); setInvalid(null); }}
          description={<>Its address will be <Code>{parent}--{name || 'name'}</Code>.</>}
          error={invalid ?? fieldError}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button type="submit" loading={create.isPending}>Create environment</Button>
        </Group>
      </Stack>
    </form>
  );
}

function CopyProgress({ env, parentName, onClose }: { env: Environment; parentName: string; onClose(): void }) {
  return (
    <Stack>
      {env.status === 'copying' && (
        <Group gap="sm" wrap="nowrap" role="status" aria-live="polite" data-environment-status="copying">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Copying {parentName} to <Code>{env.slug}</Code>… You can close this window meanwhile.</Text>
        </Group>
      )}
      {env.status === 'ready' && (
        <Alert color="teal" role="status" title="The environment is ready" data-environment-status="ready">
          <Stack gap="xs" align="flex-start">
            <Text size="sm"><Code>{env.slug}</Code> holds a copy of {parentName}.</Text>
            <Anchor component={Link} to={`/projects/${env.slug}`} onClick={onClose} fw={500} size="sm">Open {env.name}</Anchor>
          </Stack>
        </Alert>
      )}
      {env.status === 'failed' && (
        <Alert color="red" role="alert" title="The copy failed" data-environment-status="failed">
          {env.error ?? 'The platform could not copy the project.'} Delete the environment and try again.
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>Close</Button>
      </Group>
    </Stack>
  );
}
