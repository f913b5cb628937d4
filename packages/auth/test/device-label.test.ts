// The device labels of the session list and the new-sign-in e-mail.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { deviceLabel, UNKNOWN_DEVICE } from '../src/device-label.ts';

it('labels browsers by name, major version and OS; other clients by their user agent', () => {
  const cases: Array<[string | null | undefined, string]> = [
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'Chrome 120 on macOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox 121 on Windows'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1', 'Safari 17 on iOS (iPhone)'],
    ['curl/8.4.0', 'curl/8.4.0'],
    [`script/${'x'.repeat(200)}`, `script/${'x'.repeat(72)}…`],
    ['   ', UNKNOWN_DEVICE],
    [null, UNKNOWN_DEVICE],
    [undefined, UNKNOWN_DEVICE],
  ];
  for (const [ua, label] of cases) assert.equal(deviceLabel(ua), label, String(ua));
});
