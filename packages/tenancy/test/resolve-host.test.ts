import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tenantSlugFromHost } from '../src/resolve-host.ts';

describe('tenantSlugFromHost', () => {
  it('extracts the slug label under the base domain', () => {
    assert.equal(tenantSlugFromHost('acme.localhost:1337', 'localhost'), 'acme');
    assert.equal(tenantSlugFromHost('Acme-Blog.Example.com', 'example.com'), 'acme-blog');
    assert.equal(tenantSlugFromHost('acme.example.com.', 'example.com'), 'acme');
  });
  it('refuses anything that is not exactly one valid slug label', () => {
    for (const host of [undefined, '', 'localhost:1337', 'example.com', 'a.b.example.com', 'x.example.com', '-ab.example.com',
      'ab-.example.com', '[::1]:1337', 'acme.example.org', `${'a'.repeat(60)}.example.com`, 'ac_me.example.com']) {
      assert.equal(tenantSlugFromHost(host, 'example.com'), null, String(host));
    }
  });
});
