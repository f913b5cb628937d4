// What the gateway may call when it talks to a project's identity provider (single sign-on): the
// issuer URL is an owner's input, so, as for webhooks, no plain http and no loopback, private or
// link-local address (SSRF) unless SSO_ALLOW_PRIVATE (development and tests).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '@cms/webhooks';

export function ssoEgressCheck(allowPrivate: boolean): (url: URL) => Promise<void> {
  return async (url) => {
    if (allowPrivate) return;
    if (url.protocol !== 'https:') throw new Error(`${url.origin} is not https`);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    const refused = addresses.find((address) => isPrivateAddress(address));
    if (refused !== undefined) throw new Error(`${host} resolves to a private or loopback address (${refused})`);
  };
}
