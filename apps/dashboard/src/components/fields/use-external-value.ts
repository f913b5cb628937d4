// Editors keep their own state (Slate's tree, CodeMirror's text) and report changes up. The value
// coming back down is usually one they reported (possibly a keystroke or two behind); any other
// value (another document or locale loaded, the form reset) must replace what they hold. Values
// are compared as JSON, so a parent echoing a copy is no change.
import { useEffect, useRef, useState } from 'react';

export function useExternalValue(value: unknown): {
  /** bumps when the editor must start over from `value` */
  generation: number;
  /** records a value the editor reports; false when the editor already held it */
  report(next: unknown): boolean;
} {
  const [generation, setGeneration] = useState(0);
  const json = JSON.stringify(value ?? null);
  const held = useRef(json);
  // Reported values the parent has not given back yet, oldest first.
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const at = pending.current.indexOf(json);
    if (at >= 0) {
      pending.current = pending.current.slice(at + 1);
      return;
    }
    if (json === held.current) return;
    held.current = json;
    pending.current = [];
    setGeneration((g) => g + 1);
  }, [json]);
  return {
    generation,
    report(next) {
      const nextJson = JSON.stringify(next ?? null);
      if (nextJson === held.current) return false;
      held.current = nextJson;
      // Bounded: a parent that never gives values back must not make this grow forever.
      pending.current = [...pending.current.slice(-50), nextJson];
      return true;
    },
  };
}
