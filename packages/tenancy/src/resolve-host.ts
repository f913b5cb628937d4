import { ANY_SLUG_PATTERN } from './project-record.ts';

/** `acme.example.com[:port]` with BASE_DOMAIN `example.com` → `acme`; anything else → null. */
export function tenantSlugFromHost(host: string | undefined, baseDomain: string): string | null {
  if (!host || host.length > 300) return null;
  let name = host.toLowerCase();
  if (name.startsWith('[')) return null; // IPv6 literal
  const colon = name.lastIndexOf(':');
  if (colon !== -1) name = name.slice(0, colon);
  if (name.endsWith('.')) name = name.slice(0, -1);
  const suffix = `.${baseDomain}`;
  if (!name.endsWith(suffix)) return null;
  const label = name.slice(0, -suffix.length);
  // Environments' slugs too (`{parent}--{name}`, at most 62 characters: one DNS label).
  return ANY_SLUG_PATTERN.test(label) ? label : null;
}
