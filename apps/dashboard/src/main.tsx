import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Alert, Anchor, Modal, Notification, createTheme, MantineProvider, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { App } from './App.tsx';

// Shades chosen for WCAG AA contrast (4.5:1) of text on white and of white on the primary color.
// Links are underlined: distinguishable without relying on color.
const theme = createTheme({
  primaryColor: 'indigo', primaryShade: 8, defaultRadius: 'md', respectReducedMotion: true,
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    // A notification's message under a title is gray 6 (3.3:1): dimmed (gray 7) instead.
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } }, styles: { description: { color: 'var(--mantine-color-dimmed)' } } }),
    // Light alerts color their title like their background: keep it in the text color instead.
    Alert: Alert.extend({ styles: { title: { color: 'var(--mantine-color-text)' } } }),
  },
});
const contrast: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7]!, '--mantine-color-anchor': t.colors.indigo[8]!, '--mantine-color-placeholder': t.colors.gray[7]!,
    // Field errors (message and invalid input text): red 6 is below 4.5:1 on white.
    '--mantine-color-error': t.colors.red[9]!,
    // A hovered light/subtle button's text (shade 9) on shade 2 is 4.3:1: hover on shade 1 instead.
    ...Object.fromEntries(Object.keys(t.colors).map((name) => [`--mantine-color-${name}-light-hover`, t.colors[name]![1]!])),
  },
  dark: {},
});
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
// A data router (App keeps its own <Routes>): it lets a page with unsaved changes block leaving.
const router = createBrowserRouter([{ path: '*', element: <App /> }]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
