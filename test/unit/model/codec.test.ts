import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildBlendshapes } from '../../../src/geometry/expressions/blendshapes.ts';
import { PART_NAMES } from '../../../src/geometry/template/types.ts';
import { decodeDocument, encodeDocument } from '../../../src/model/codec.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { storedDocument, storedDocumentAvb1 } from '../../fixtures/documents.ts';

// assert's deepStrictEqual compares typed arrays byte for byte: -0 against 0 and NaN payloads count.
const notEncoded = { message: 'not an encoded document' };
const header = (bytes: Uint8Array) => {
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true);
  return { length, json: JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) };
};

describe('document codec', () => {
  it('round-trips nested typed arrays of every kind', () => {
    const doc = { a: new Float32Array([1.5, -2]), list: [{ b: new Uint16Array([1, 65535]), n: 'x' }, { c: new Uint8Array([7]) }], d: new Uint32Array([4e9]), empty: new Float32Array(0) };
    const back = decodeDocument<typeof doc>(encodeDocument(doc));
    assert.deepStrictEqual(back, doc);
    assert.ok(back.a instanceof Float32Array && back.list[0]!.b instanceof Uint16Array);
  });

  it('stores sparse 32-bit arrays by their runs and gives back every bit, -0 and NaN payloads included', () => {
    const doc = storedDocument();
    const bytes = encodeDocument(doc);
    const back = decodeDocument<typeof doc>(bytes);
    assert.deepStrictEqual(back, doc);
    const deltas = back.model.meshes[0]!.morphs[0]!.deltas;
    assert.ok(Object.is(deltas[30 * 3 + 1], -0));
    assert.equal(new Uint32Array(deltas.buffer)[33 * 3], 0x7fc00123);
    const { json } = header(bytes);
    const [jaw, unused] = json.model.meshes[0].morphs.map((m: { deltas: object }) => m.deltas);
    assert.deepEqual(jaw, { $bin: 4, kind: 'f32', length: 120, runs: 4, stored: 27 });
    assert.deepEqual(unused, { $bin: 5, kind: 'f32', length: 120, runs: 0, stored: 0 });
    assert.equal(json.model.meshes[0].geometry.positions.runs, undefined, 'an array with few zeros stays whole');
  });

  it('decodes documents stored before the runs (AVB1) to the same document', () => {
    const old = storedDocumentAvb1();
    assert.equal(new TextDecoder().decode(old.subarray(0, 4)), 'AVB1');
    assert.deepStrictEqual(decodeDocument(old), storedDocument());
    assert.deepStrictEqual(decodeDocument(old), decodeDocument(encodeDocument(storedDocument())));
  });

  it('keeps template 2.0 blendshapes exactly, in a fraction of their size', () => {
    const tpl = buildTemplate('2.0');
    const neutral = { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) };
    const doc = { morphs: buildBlendshapes(tpl, neutral, ['expressions', 'visemes']) };
    const bytes = encodeDocument(doc);
    assert.deepStrictEqual(decodeDocument(bytes), doc);
    const whole = Object.values(doc.morphs).flat().reduce((sum, m) => sum + m.deltas.byteLength, 0);
    assert.ok(bytes.length < whole / 5, `${bytes.length} bytes for ${whole} bytes of deltas`);
  });

  it('refuses what it did not write', () => {
    const bytes = encodeDocument(storedDocument());
    assert.throws(() => decodeDocument(new Uint8Array(16)), notEncoded);
    assert.throws(() => decodeDocument(Uint8Array.of(0x41, 0x56, 0x42)), notEncoded);
    // Cut anywhere, or with bytes after the end.
    for (let length = 0; length < bytes.length; length++) assert.throws(() => decodeDocument(bytes.subarray(0, length)), notEncoded, `cut at ${length}`);
    const longer = new Uint8Array(bytes.length + 8);
    longer.set(bytes);
    assert.throws(() => decodeDocument(longer), notEncoded);
    // Runs that overlap, leave the array or do not add up to the elements stored.
    const one = encodeDocument({ d: Float32Array.of(0, 0, 1, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0) });
    const runsAt = (8 + header(one).length + 7) & ~7;
    const edited = (at: number, value: number) => {
      const copy = one.slice();
      new DataView(copy.buffer).setUint32(runsAt + at * 4, value, true);
      return copy;
    };
    assert.deepEqual(header(one).json.d, { $bin: 0, kind: 'f32', length: 16, runs: 2, stored: 3 });
    assert.deepEqual([...new Uint32Array(one.slice(runsAt, runsAt + 16).buffer)], [2, 2, 7, 1]);
    assert.deepStrictEqual(decodeDocument(edited(2, 7)), { d: Float32Array.of(0, 0, 1, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0) });
    assert.throws(() => decodeDocument(edited(2, 3)), notEncoded);
    assert.throws(() => decodeDocument(edited(2, 16)), notEncoded);
    assert.throws(() => decodeDocument(edited(1, 1)), notEncoded);
    assert.throws(() => decodeDocument(edited(3, 0)), notEncoded);
    // Runs in a document that says it has none (AVB1).
    const relabelled = bytes.slice();
    relabelled[3] = 0x31;
    assert.throws(() => decodeDocument(relabelled), notEncoded);
  });
});
