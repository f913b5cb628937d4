// ETags and If-None-Match (RFC 9110 weak comparison), and the surrogate keys of an answer.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeKeys, ifNoneMatchHits, strongEtag, surrogateKeysOf } from '../src/index.ts';

describe('strongEtag and If-None-Match', () => {
  it('same bytes, same tag; other bytes, another', () => {
    assert.equal(strongEtag('{"a":1}'), strongEtag(Buffer.from('{"a":1}')));
    assert.notEqual(strongEtag('{"a":1}'), strongEtag('{"a":2}'));
    assert.match(strongEtag(''), /^"[A-Za-z0-9_-]{27}"$/);
  });

  it('matches a tag in a list, a weak form, and *', () => {
    const tag = strongEtag('x');
    assert.equal(ifNoneMatchHits(tag, tag), true);
    assert.equal(ifNoneMatchHits(`W/${tag}`, tag), true);
    assert.equal(ifNoneMatchHits(`"a", ${tag} , "b"`, tag), true);
    assert.equal(ifNoneMatchHits('*', tag), true);
    assert.equal(ifNoneMatchHits('"other"', tag), false);
    assert.equal(ifNoneMatchHits(undefined, tag), false);
    assert.equal(ifNoneMatchHits('', tag), false);
    assert.equal(ifNoneMatchHits(tag.slice(1, -1), tag), false);
  });
});

describe('surrogate keys', () => {
  it('the project, the types read and every document, once each', () => {
    const json = '{"data":[{"documentId":"aaa","author":{"documentId":"bbb"}},{"documentId":"ccc","author":{"documentId":"bbb"}}]}';
    assert.equal(surrogateKeysOf(7, ['api::a.a', 'api::b.b'], json), 'p:7 t:api::a.a t:api::b.b d:aaa d:bbb d:ccc');
  });

  it('stops adding document keys past the header size (the type keys cover them)', () => {
    const json = JSON.stringify({ data: Array.from({ length: 2_000 }, (_, i) => ({ documentId: `doc${String(i).padStart(21, '0')}` })) });
    const header = surrogateKeysOf(1, ['api::a.a'], json);
    assert.ok(header.length <= 8_000);
    assert.ok(header.startsWith('p:1 t:api::a.a d:doc'));
  });

  it('a change purges its type and document', () => {
    assert.deepEqual(changeKeys([{ uid: 'api::a.a', documentId: 'x' }, { uid: 'api::a.a', documentId: 'y' }]), ['t:api::a.a', 'd:x', 'd:y']);
  });
});
