import type { FastifyRequest } from 'fastify';

/**
 * The token of `Authorization: Bearer <token>` (scheme case-insensitive, exactly two parts), or
 * null for a missing header or any other scheme.
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return null;
  return parts[1]!;
}
