// The management API's reference (`/docs/api`, public): `GET /v1/openapi.json` rendered by Scalar's
// API reference, bundled in this page's own chunk (loaded when the page is first opened; see
// App.tsx). Configured for the dashboard's Content-Security-Policy (apps/gateway/src/http/dashboard.ts):
// nothing is loaded from another origin (no web fonts, no telemetry, no request proxy, no AI agent),
// and no request is sent from the page (the dashboard's cookie session would also need the CSRF
// header): it documents, `cms api` and scripts call.
import { Anchor, Group, Text } from '@mantine/core';
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';

/** Where the document is served (same origin: `connect-src 'self'`). */
const MANAGEMENT_DOCUMENT_URL = '/v1/openapi.json';

/**
 * Scalar's light theme with darker muted text and HTTP method colours: its own fall under WCAG AA's
 * 4.5:1 on its grey backgrounds (axe's color-contrast). Unlayered, so it wins over the theme's layer.
 */
const CONTRAST = `.light-mode {
  --scalar-color-3: #6b6b6b;
  --scalar-color-green: #00784c;
  --scalar-color-red: #c62828;
  --scalar-color-orange: #b54300;
  --scalar-color-yellow: #8a6500;
}`;

export function ApiReferencePage() {
  useEffect(() => {
    const previous = document.title;
    document.title = 'API reference · Content Platform';
    return () => {
      document.title = previous;
    };
  }, []);

  // One object for the page's life: Scalar reconfigures itself whenever it gets a new one.
  const configuration = useMemo(() => ({
    url: MANAGEMENT_DOCUMENT_URL,
    // Inter and JetBrains Mono would come from Scalar's font server: the page's own fonts instead.
    withDefaultFonts: false,
    telemetry: false,
    // Scalar's AI agent is on by default on localhost, and its MCP integration; no request proxy
    // either (the document is same-origin).
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    hideTestRequestButton: true,
    showDeveloperTools: 'never' as const,
    hideDarkModeToggle: true,
    forceDarkModeState: 'light' as const,
    documentDownloadType: 'json' as const,
    defaultOpenFirstTag: true,
    orderRequiredPropertiesFirst: true,
    customCss: CONTRAST,
  }), []);

  return (
    <div>
      <Group component="header" px="md" py="xs" justify="space-between" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group gap="md">
          <Anchor component={Link} to="/" fw={700} c="inherit" underline="never">Content Platform</Anchor>
          <Text size="sm" fw={600} component="span">API reference</Text>
        </Group>
        <Anchor href={MANAGEMENT_DOCUMENT_URL} size="sm" target="_blank" rel="noopener">openapi.json</Anchor>
      </Group>
      {/* Scalar's own `<main>` holds the reference. */}
      <ApiReferenceReact configuration={configuration} />
    </div>
  );
}
