// How the dashboard holds its session: an HttpOnly, SameSite=Strict cookie scoped to `/v1`
// (Secure when served over HTTPS), plus a readable CSRF cookie the app echoes in `x-csrf-token` on
// every mutating request. Automation keeps using `Authorization: Bearer <token>`, which needs no
// CSRF defence (a browser never adds it on its own).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '@cms/errors';
import type { SessionService } from '@cms/auth';
import { bearerToken } from '../http/bearer.ts';

export const SESSION_COOKIE = 'cms_session';
export const CSRF_COOKIE = 'cms_csrf';
export const CSRF_HEADER = 'x-csrf-token';
const MAX_AGE_SECONDS = 7 * 24 * 3600;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The presented session token and whether it came from the cookie. */
export function sessionTokenOf(request: FastifyRequest): { token: string; fromCookie: boolean } | null {
  const bearer = bearerToken(request);
  if (bearer) return { token: bearer, fromCookie: false };
  const cookie = request.cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, fromCookie: true } : null;
}

/** A cookie-authenticated request that changes something must carry the session's CSRF token. */
export function checkCsrf(request: FastifyRequest, sessions: SessionService, presented: { token: string; fromCookie: boolean }): void {
  if (!presented.fromCookie || SAFE_METHODS.has(request.method)) return;
  const header = request.headers[CSRF_HEADER];
  if (!sessions.csrfMatches(presented.token, typeof header === 'string' ? header : undefined)) {
    throw new ForbiddenError('Missing or invalid CSRF token: send the cms_csrf cookie\'s value in the x-csrf-token header');
  }
}

export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, sessions: SessionService, token: string): void {
  const secure = request.protocol === 'https';
  reply.setCookie(SESSION_COOKIE, token, { path: '/v1', httpOnly: true, sameSite: 'strict', secure, maxAge: MAX_AGE_SECONDS });
  // Readable by the app (path `/` so every page sees it); worthless without the session cookie.
  reply.setCookie(CSRF_COOKIE, sessions.csrfToken(token), { path: '/', httpOnly: false, sameSite: 'strict', secure, maxAge: MAX_AGE_SECONDS });
}

export function clearSessionCookies(request: FastifyRequest, reply: FastifyReply): void {
  const secure = request.protocol === 'https';
  reply.clearCookie(SESSION_COOKIE, { path: '/v1', httpOnly: true, sameSite: 'strict', secure });
  reply.clearCookie(CSRF_COOKIE, { path: '/', sameSite: 'strict', secure });
}
