// The browser's device cookie: a long-lived random value that tells a browser the account signed
// in from before from a new one (new-sign-in e-mails, docs/sessions.md). Sent only to the sign-in
// routes (`/v1/auth`), HttpOnly, Secure over HTTPS, and SameSite=Lax: it identifies the browser,
// it authorises nothing.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DEVICE_COOKIE = 'cms_device';
const MAX_AGE_SECONDS = 400 * 24 * 3600; // the longest browsers keep a cookie

export function deviceCookieOf(request: FastifyRequest): string | undefined {
  return request.cookies[DEVICE_COOKIE];
}

export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(DEVICE_COOKIE, value, { path: '/v1/auth', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: MAX_AGE_SECONDS });
}
