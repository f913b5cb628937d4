// Loading and error states shared by every page.
import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { ApiError } from '../lib/api-error.ts';

export function PageLoader({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text c="dimmed" size="sm">{label}</Text>
      </Stack>
    </Center>
  );
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export function PageError({ error, title = 'Could not load this page' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert" my="md">
      {errorMessage(error)}
    </Alert>
  );
}
