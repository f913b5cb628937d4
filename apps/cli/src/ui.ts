// Terminal output shared by the commands. Results go to stdout (plain, so scripts can read
// them); spinners and prompts only appear on a terminal, and spinners draw on stderr.
import * as p from '@clack/prompts';
import { CliError, interactive } from './context.ts';

/** Runs `work` behind a spinner when stderr is a terminal. */
export async function withSpinner<T>(message: string, work: () => Promise<T>, done?: (result: T) => string): Promise<T> {
  if (!process.stderr.isTTY) return work();
  const s = p.spinner({ output: process.stderr });
  s.start(message);
  try {
    const result = await work();
    s.stop(done ? done(result) : message);
    return result;
  } catch (err) {
    s.error(message);
    throw err;
  }
}

/** A prompt's answer, or exit 1 when the user cancels it (Ctrl-C / Esc). */
export function answered<T>(value: T): Exclude<T, symbol> {
  if (p.isCancel(value)) {
    p.cancel('Cancelled.');
    throw new CliError('Cancelled.');
  }
  return value as Exclude<T, symbol>;
}

/**
 * Asks before something irreversible: `--yes` skips the question; without a terminal to ask on
 * the answer is no (CI must say `--yes`).
 */
export async function confirmOrRefuse(question: string, yes: boolean | undefined, refusal: string): Promise<void> {
  if (yes) return;
  if (!interactive()) throw new CliError(`${refusal} Pass --yes to confirm without a prompt.`);
  if (!answered(await p.confirm({ message: question, initialValue: false }))) throw new CliError('Cancelled: nothing was changed.');
}

/** Lines of a table with aligned columns (no borders, easy to grep). */
export function table(head: string[], rows: string[][]): string {
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

export function print(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
}
