// Every route renders inside its own error boundary: a page that throws while rendering shows
// what went wrong, with a way to try again, in place of that page only (the header, the
// project's navigation and the other pages keep working). Moving to another page starts over.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useLocation } from 'react-router';
import { errorMessage } from './PageState.tsx';

function RouteFailure({ error, resetErrorBoundary }: FallbackProps) {
  return (
    <Alert color="red" title="This page stopped working" role="alert" my="md">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{errorMessage(error)}</Text>
        <Button size="xs" variant="default" onClick={resetErrorBoundary}>Try again</Button>
      </Stack>
    </Alert>
  );
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  // Queries that failed under the boundary are fetched again by "Try again".
  const { reset } = useQueryErrorResetBoundary();
  return (
    <ErrorBoundary FallbackComponent={RouteFailure} onReset={reset} resetKeys={[pathname]}>
      {children}
    </ErrorBoundary>
  );
}
