// Schedules' input: IANA zones only, ISO instants that exist, in the future.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isIanaTimeZone, parseInstant, zonedInstant } from '../src/timezone.ts';
import { parseReleaseBody } from '../src/release-input.ts';

describe('isIanaTimeZone', () => {
  it('accepts zone names and refuses offsets, abbreviations and junk', () => {
    for (const zone of ['Europe/Paris', 'America/Argentina/Buenos_Aires', 'UTC', 'Asia/Kolkata', 'Etc/GMT+5']) assert.ok(isIanaTimeZone(zone), zone);
    for (const zone of ['+01:00', 'Mars/Olympus', '', 'europe/paris ', 'europe/paris', 'Europe/Paris; DROP', 'x'.repeat(100), '../etc']) assert.ok(!isIanaTimeZone(zone), zone);
  });
});

describe('parseInstant', () => {
  it('reads instants with Z or an offset, and refuses days and times that do not exist', () => {
    assert.equal(parseInstant('2030-03-31T01:30:00+02:00'), Date.UTC(2030, 2, 30, 23, 30));
    assert.equal(parseInstant('2030-01-01T00:00Z'), Date.UTC(2030, 0, 1));
    assert.equal(parseInstant('2030-01-01T00:00:00.123456Z'), Date.UTC(2030, 0, 1, 0, 0, 0, 123));
    for (const text of ['2030-02-30T10:00:00Z', '2030-01-01T24:00:00Z', '2030-01-01T10:60:00Z', '2030-01-01T10:00:00', '2030-01-01', 'tomorrow', '2030-1-1T10:00:00Z']) {
      assert.equal(parseInstant(text), null, text);
    }
  });

  it('answers a schedule in UTC, and only in the future', () => {
    const now = Date.UTC(2030, 0, 1);
    assert.deepEqual(parseReleaseBody({ scheduledAt: '2030-01-01T09:00:00+01:00', timezone: 'Europe/Paris' }, now), { scheduledAt: '2030-01-01T08:00:00.000Z', timezone: 'Europe/Paris' });
    assert.throws(() => parseReleaseBody({ scheduledAt: '2029-12-31T23:59:59Z' }, now), /in the future/);
  });
});

describe('zonedInstant', () => {
  it('reads a wall-clock time in an IANA zone, following its daylight saving time', () => {
    assert.equal(zonedInstant('2030-03-30T10:00:00', 'Europe/Paris'), Date.UTC(2030, 2, 30, 9));
    assert.equal(zonedInstant('2030-03-31T10:00:00', 'Europe/Paris'), Date.UTC(2030, 2, 31, 8));
    assert.equal(zonedInstant('2030-10-27T10:00', 'Europe/Paris'), Date.UTC(2030, 9, 27, 9));
    assert.equal(zonedInstant('2030-07-01T10:00:00.250', 'America/New_York'), Date.UTC(2030, 6, 1, 14, 0, 0, 250));
    assert.equal(zonedInstant('2030-01-01T00:00:00', 'UTC'), Date.UTC(2030, 0, 1));
    // The hour skipped in spring does not exist; the one repeated in autumn is its first time.
    assert.equal(zonedInstant('2030-03-31T02:30:00', 'Europe/Paris'), null);
    assert.equal(zonedInstant('2030-10-27T02:30:00', 'Europe/Paris'), Date.UTC(2030, 9, 27, 0, 30));
    for (const text of ['2030-02-30T10:00:00', '2030-01-01T24:00:00', '2030-01-01T10:00:00Z', '2030-01-01']) assert.equal(zonedInstant(text, 'Europe/Paris'), null, text);
  });
});
