// TOTP codes for tests of two-factor sign-in (docs/two-factor.md), computed with otplib like an
// authenticator app would. The server accepts a time step once, within one step of now: each
// secret's codes are handed out for ever later steps, waiting for the clock when the window's
// three steps were used.
import { generate } from 'otplib';

const lastStep = new Map<string, number>();

/** A code the server accepts now for `secret`, of a step later than any handed out before. */
export async function nextCode(secret: string): Promise<string> {
  for (;;) {
    const now = Date.now() / 1000;
    const current = Math.floor(now / 30);
    // Late in a step, the previous one would leave the window before the request is served.
    const step = Math.max((lastStep.get(secret) ?? 0) + 1, now - current * 30 > 25 ? current : current - 1);
    if (step <= current + 1) {
      lastStep.set(secret, step);
      return generate({ secret, epoch: step * 30 + 1 });
    }
    await new Promise((r) => setTimeout(r, ((step - 1) * 30 - now) * 1000 + 50));
  }
}

/** A six-digit code valid in no step near now. */
export async function wrongCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const valid = new Set(await Promise.all([-2, -1, 0, 1, 2].map((d) => generate({ secret, epoch: now + d * 30 }))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}
