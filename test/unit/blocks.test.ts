// The dashboard's pure field logic: Strapi 5 blocks JSON ↔ the Slate editor's value, and the
// relation write body the content manager sends (checked against the API's ordering rules).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyBlocks, fromSlate, toSlate, UNKNOWN_BLOCK, UNKNOWN_INLINE } from '../../apps/dashboard/src/components/fields/blocks.ts';
import { relationBody, type RelationItem } from '../../apps/dashboard/src/components/fields/relation-body.ts';

const text = (t: string, marks: Record<string, true> = {}) => ({ type: 'text', text: t, ...marks });
const roundTrip = (value: unknown[]) => fromSlate(toSlate(value));

describe('blocks: Strapi JSON ↔ Slate', () => {
  it('round-trips every node type', () => {
    const image = {
      name: 'cover.png', alternativeText: 'A cover', url: '/uploads/cover_abc.png', caption: null, width: 40, height: 30,
      formats: { thumbnail: { url: '/uploads/thumbnail_cover_abc.png' } }, hash: 'cover_abc', ext: '.png', mime: 'image/png', size: 0.5,
      previewUrl: null, provider: 'local', createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z',
    };
    const value = [
      { type: 'paragraph', children: [text('Hi '), { type: 'link', url: 'https://example.com', children: [text('there', { bold: true })] }, text('!')] },
      ...[1, 2, 3, 4, 5, 6].map((level) => ({ type: 'heading', level, children: [text(`Heading ${level}`)] })),
      { type: 'quote', children: [text('Quoted')] },
      { type: 'code', language: 'typescript', children: [text('const a = 1;\nconst b = 2;')] },
      { type: 'code', children: [text('plain')] },
      {
        type: 'list', format: 'unordered', children: [
          { type: 'list-item', children: [text('One')] },
          { type: 'list', format: 'ordered', indentLevel: 1, children: [{ type: 'list-item', children: [text('One.a')] }] },
          { type: 'list-item', children: [text('Two')] },
        ],
      },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [text('First')] }] },
      { type: 'image', image, children: [text('')] },
    ];
    assert.deepEqual(roundTrip(value), value);
  });

  it('round-trips every text mark, alone and combined', () => {
    const value = [{
      type: 'paragraph', children: [
        text('b', { bold: true }), text('i', { italic: true }), text('u', { underline: true }), text('s', { strikethrough: true }),
        text('c', { code: true }), text('all', { bold: true, italic: true, underline: true, strikethrough: true, code: true }), text('plain'),
      ],
    }];
    assert.deepEqual(roundTrip(value), value);
  });

  it('gives Slate text leaves without `type` and keeps the editor\'s own properties out of the output', () => {
    const slate = toSlate([{ type: 'paragraph', children: [text('Hi', { bold: true })] }]);
    assert.deepEqual(slate, [{ type: 'paragraph', children: [{ text: 'Hi', bold: true }] }]);
    // Left over by block type changes in the editor, or added by anything else: never written.
    const out = fromSlate([
      { type: 'paragraph', level: 2, language: 'js', id: 'x', children: [{ text: 'a', bold: true, italic: false, highlight: true }] },
      { type: 'heading', level: 3, language: 'js', children: [{ text: 'h' }] },
      { type: 'list', format: 'ordered', level: 1, children: [{ type: 'list-item', level: 4, children: [{ text: 'i' }] }] },
    ]);
    assert.deepEqual(out, [
      { type: 'paragraph', children: [text('a', { bold: true })] },
      { type: 'heading', level: 3, children: [text('h')] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [text('i')] }] },
    ]);
  });

  it('keeps unknown node types whole, as blocks and inline', () => {
    const embed = { type: 'embed', provider: 'youtube', videoId: 'abc', children: [{ type: 'text', text: '' }] };
    const mention = { type: 'mention', user: 7, children: [{ type: 'text', text: '@ada' }] };
    const value = [embed, { type: 'paragraph', children: [text('Hello '), mention, text('')] }];
    const slate = toSlate(value);
    assert.equal(slate[0]!.type, UNKNOWN_BLOCK);
    assert.equal((slate[1]!.children[1] as { type: string }).type, UNKNOWN_INLINE);
    assert.deepEqual(fromSlate(slate), value);
  });

  it('reads an empty or unusable value as one empty paragraph', () => {
    for (const value of [null, undefined, [], 'text', 42, {}, [null, 1, 'x', []]]) {
      assert.deepEqual(toSlate(value), [{ type: 'paragraph', children: [{ text: '' }] }], JSON.stringify(value));
      assert.deepEqual(fromSlate(toSlate(value)), emptyBlocks());
    }
    assert.deepEqual(emptyBlocks(), [{ type: 'paragraph', children: [{ type: 'text', text: '' }] }]);
    assert.deepEqual(fromSlate([]), emptyBlocks());
  });

  it('normalises malformed nodes into Strapi\'s shapes', () => {
    assert.deepEqual(roundTrip([
      // no children, a bad heading level, a list with an unknown format and stray children
      { type: 'paragraph' },
      { type: 'heading', level: 9, children: [text('h')] },
      { type: 'heading', level: '2', children: [text('h2')] },
      { type: 'list', format: 'weird', children: [text('loose'), { type: 'paragraph', children: [text('para')] }] },
      { type: 'list', format: 'ordered', children: [] },
      // inline nodes and an item where blocks belong
      text('top-level'), { type: 'link', url: '/x', children: [text('link')] },
      { type: 'list-item', children: [text('lonely item')] },
      // a link in a link, a link without url, text with non-boolean marks
      { type: 'paragraph', children: [{ type: 'link', url: 'https://a', children: [{ type: 'link', url: 'https://b', children: [text('inner')] }] }] },
      { type: 'paragraph', children: [{ type: 'link', children: [] }, { text: 'no type', bold: 'yes', italic: true }] },
      // an image without its file: kept as it is
      { type: 'image', children: [text('')] },
    ]), [
      { type: 'paragraph', children: [text('')] },
      { type: 'heading', level: 1, children: [text('h')] },
      { type: 'heading', level: 2, children: [text('h2')] },
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [text('loose')] }, { type: 'list-item', children: [text('para')] }] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [text('')] }] },
      { type: 'paragraph', children: [text('top-level'), { type: 'link', url: '/x', children: [text('link')] }] },
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [text('lonely item')] }] },
      { type: 'paragraph', children: [{ type: 'link', url: 'https://a', children: [text('inner')] }] },
      { type: 'paragraph', children: [{ type: 'link', url: '', children: [text('')] }, text('no type', { italic: true })] },
      { type: 'image', children: [text('')] },
    ]);
  });
});

describe('relationBody', () => {
  const item = (documentId: string): RelationItem => ({ documentId, label: documentId.toUpperCase() });
  const items = (...ids: string[]) => ids.map(item);

  /**
   * The API's ordering of a to-many write (packages/documents/src/relation-writes.ts, as Strapi):
   * disconnect, then each connect item in turn; an item already linked stays put on `end`.
   */
  function apply(stored: string[], body: unknown): string[] {
    if (body === undefined) return stored;
    type Position = { start?: true; end?: true; before?: string; after?: string };
    const { set, connect = [], disconnect = [] } = body as {
      set?: Array<{ documentId: string }>;
      connect?: Array<{ documentId: string; position?: Position }>;
      disconnect?: Array<{ documentId: string }>;
    };
    if (set) return set.map((s) => s.documentId);
    let list = stored.filter((id) => !disconnect.some((d) => d.documentId === id));
    for (const { documentId, position = { end: true } as Position } of connect) {
      const present = list.includes(documentId);
      if (present && position.end) continue;
      list = list.filter((id) => id !== documentId);
      if (position.start) list.unshift(documentId);
      else if (position.end) list.push(documentId);
      else {
        const anchor = (position.before ?? position.after)!;
        const at = list.indexOf(anchor);
        assert.ok(at >= 0, `anchor ${anchor} connected first`);
        list.splice(position.before ? at : at + 1, 0, documentId);
      }
    }
    return list;
  }

  it('is undefined when nothing changed', () => {
    assert.equal(relationBody([], [], false), undefined);
    assert.equal(relationBody([], [], true), undefined);
    assert.equal(relationBody(items('a'), items('a'), false), undefined);
    assert.equal(relationBody(items('a', 'b', 'c'), items('a', 'b', 'c'), true), undefined);
    // labels and statuses are not written
    assert.equal(relationBody(items('a'), [{ documentId: 'a', label: 'Other', status: 'modified' }], true), undefined);
  });

  it('to-one: sets the new target, or none', () => {
    assert.deepEqual(relationBody([], items('a'), false), { set: [{ documentId: 'a' }] });
    assert.deepEqual(relationBody(items('a'), items('b'), false), { set: [{ documentId: 'b' }] });
    assert.deepEqual(relationBody(items('a'), [], false), { set: [] });
  });

  it('to-many: appends new items at the end and disconnects removed ones', () => {
    assert.deepEqual(relationBody(items('a', 'b'), items('a', 'b', 'c', 'd'), true), {
      connect: [{ documentId: 'c', position: { end: true } }, { documentId: 'd', position: { end: true } }],
    });
    assert.deepEqual(relationBody(items('a', 'b', 'c'), items('a', 'c'), true), { disconnect: [{ documentId: 'b' }] });
    assert.deepEqual(relationBody(items('a', 'b'), [], true), { disconnect: [{ documentId: 'a' }, { documentId: 'b' }] });
    assert.deepEqual(relationBody([], items('x', 'y'), true), {
      connect: [{ documentId: 'x', position: { end: true } }, { documentId: 'y', position: { end: true } }],
    });
  });

  it('to-many: places items inserted between kept ones after their predecessor', () => {
    assert.deepEqual(relationBody(items('a', 'b'), items('n', 'a', 'm', 'b'), true), {
      connect: [{ documentId: 'n', position: { start: true } }, { documentId: 'm', position: { after: 'a' } }],
    });
  });

  it('to-many: a reordering places every item, first at the start and each after the previous', () => {
    assert.deepEqual(relationBody(items('a', 'b', 'c'), items('c', 'a', 'b'), true), {
      connect: [
        { documentId: 'c', position: { start: true } }, { documentId: 'a', position: { after: 'c' } }, { documentId: 'b', position: { after: 'a' } },
      ],
    });
  });

  it('to-many: the API ends up with exactly the form\'s order, whatever changed', () => {
    const cases: Array<[string[], string[]]> = [
      [[], ['a']], [['a', 'b', 'c'], ['c', 'b', 'a']], [['a', 'b', 'c'], ['b', 'd', 'a']], [['a', 'b'], ['x', 'b', 'y', 'a', 'z']],
      [['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd']], [['a', 'b', 'c', 'd'], ['d']], [['a'], []], [['a', 'b'], ['b', 'a', 'c']],
    ];
    for (const [before, after] of cases) {
      const body = relationBody(items(...before), items(...after), true);
      assert.deepEqual(apply(before, body), after, `${before} → ${after}: ${JSON.stringify(body)}`);
    }
    // Exhaustively over the orders of picks from four documents.
    const all = ['a', 'b', 'c', 'd'];
    const orders: string[][] = [[]];
    for (let n = 0; n < all.length; n++) {
      for (const order of orders.filter((o) => o.length === n)) for (const id of all) if (!order.includes(id)) orders.push([...order, id]);
    }
    for (const before of orders) {
      for (const after of orders) assert.deepEqual(apply(before, relationBody(items(...before), items(...after), true)), after);
    }
  });

  it('to-many: ignores duplicate ids', () => {
    assert.equal(relationBody(items('a', 'b'), items('a', 'a', 'b'), true), undefined);
  });
});
