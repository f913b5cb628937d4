// The focal point of an image (what crops keep in view): click on the image to set it, or type
// it. Stored as percentages of the width and height from the top left ({x: 50, y: 50} is the
// centre), so it holds for every format of the image.
import { Box, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { MouseEvent } from 'react';

export type FocalPoint = { x: number; y: number } | null;

const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n * 10) / 10));

export function FocalPointPicker({ src, value, onChange, disabled }: { src: string; value: FocalPoint; onChange(point: FocalPoint): void; disabled?: boolean }) {
  const pick = (e: MouseEvent<HTMLImageElement>) => {
    if (disabled) return;
    const box = e.currentTarget.getBoundingClientRect();
    onChange({ x: clamp(((e.clientX - box.left) / box.width) * 100), y: clamp(((e.clientY - box.top) / box.height) * 100) });
  };
  const setAxis = (axis: 'x' | 'y', n: number | string) => {
    const v = typeof n === 'number' ? clamp(n) : Number.NaN;
    if (Number.isNaN(v)) return;
    onChange({ x: 50, y: 50, ...value, [axis]: v });
  };
  return (
    <Stack gap="xs">
      <Box pos="relative" style={{ lineHeight: 0, alignSelf: 'center' }}>
        <img
          src={src} alt="Preview: click to set the focal point" onClick={pick} data-testid="focal-point-image"
          style={{ maxWidth: '100%', maxHeight: 260, cursor: disabled ? 'default' : 'crosshair', background: 'var(--mantine-color-gray-1)' }}
        />
        {value && (
          <Box
            aria-hidden data-testid="focal-point-marker"
            style={{
              position: 'absolute', left: `${value.x}%`, top: `${value.y}%`, width: 18, height: 18, marginLeft: -9, marginTop: -9,
              borderRadius: '50%', border: '3px solid white', boxShadow: '0 0 0 2px var(--mantine-color-indigo-8)', pointerEvents: 'none',
            }}
          />
        )}
      </Box>
      <Group align="flex-end" gap="xs">
        <NumberInput label="Focal point X (%)" value={value?.x ?? ''} onChange={(n) => setAxis('x', n)} min={0} max={100} w={140} disabled={disabled} />
        <NumberInput label="Focal point Y (%)" value={value?.y ?? ''} onChange={(n) => setAxis('y', n)} min={0} max={100} w={140} disabled={disabled} />
        {value && !disabled && <Button variant="subtle" size="xs" onClick={() => onChange(null)}>Clear focal point</Button>}
      </Group>
      {!value && <Text size="xs" c="dimmed">No focal point: crops keep the centre.</Text>}
    </Stack>
  );
}
