import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeDocument, encodeDocument } from '../../../src/model/codec.ts';

describe('document codec', () => {
  it('round-trips nested typed arrays of every kind', () => {
    const doc = { a: new Float32Array([1.5, -2]), list: [{ b: new Uint16Array([1, 65535]), n: 'x' }, { c: new Uint8Array([7]) }], d: new Uint32Array([4e9]), empty: new Float32Array(0) };
    const back = decodeDocument<typeof doc>(encodeDocument(doc));
    assert.deepEqual(back, doc);
    assert.ok(back.a instanceof Float32Array && back.list[0]!.b instanceof Uint16Array);
    assert.throws(() => decodeDocument(new Uint8Array(16)));
  });
});
