// A copy-ready snippet: monospace block with a labelled copy button.
import { ActionIcon, Box, Code, CopyButton, Group, Text, Tooltip } from '@mantine/core';

export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <Box pos="relative">
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={500}>{label}</Text>
        <CopyButton value={code}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="light" onClick={copy} aria-label={`Copy ${label}`} color={copied ? 'teal' : 'gray'}>
                <span aria-hidden>{copied ? '✓' : '⧉'}</span>
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code block data-snippet={label}>{code}</Code>
    </Box>
  );
}
