// New documentIds: 24 characters, a lowercase letter then 23 of [0-9a-z] — the form of Strapi's
// cuid2 ids. cuid2 hashes (SHA-3) and converts through big numbers for every id, a few per cent
// of a create; here each character is drawn from the CSPRNG (23 × log2(36) ≈ 119 random bits,
// unique without coordination), from a buffer refilled 4 KB at a time.
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const pool = Buffer.alloc(4096);
let at = pool.length;

/** A random byte below `limit` (a multiple of the alphabet's size: no bias). */
function randomBelow(limit: number): number {
  for (;;) {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    const byte = pool[at++]!;
    if (byte < limit) return byte;
  }
}

export function newDocumentId(): string {
  let id = ALPHABET[10 + (randomBelow(234) % 26)]!;
  for (let i = 1; i < 24; i++) id += ALPHABET[randomBelow(252) % 36]!;
  return id;
}
