import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeVertices, encodeVertices } from '../../../src/client/vertices.ts';

const floats = (bytes: Uint8Array) => Array.from({ length: bytes.length / 4 }, (_, i) => new DataView(bytes.buffer, bytes.byteOffset).getFloat32(i * 4, true));

test('centimetres pass through as little-endian float32, 12 bytes per vertex', () => {
  const bytes = encodeVertices(new Float32Array([1.5, -2, 3, 4, 5, 6]));
  assert.equal(bytes.length, 24);
  assert.deepEqual(floats(bytes), [1.5, -2, 3, 4, 5, 6]);
  assert.deepEqual([bytes[0], bytes[1], bytes[2], bytes[3]], [0x00, 0x00, 0xc0, 0x3f], 'little-endian 1.5');
});

test('metres are multiplied by 100 going out and by 0.01 coming back', () => {
  const bytes = encodeVertices(new Float32Array([0.25, 1, -0.5]), { unitsPerMeter: 1 });
  assert.deepEqual(floats(bytes), [25, 100, -50]);
  assert.deepEqual(Array.from(decodeVertices(bytes, { unitsPerMeter: 1 })), [0.25, 1, -0.5]);
});

test('a mirrored engine has X negated both ways, Y and Z untouched', () => {
  const positions = new Float32Array([0.1, 0.2, 0.3, -0.4, 0.5, 0.6]);
  const bytes = encodeVertices(positions, { unitsPerMeter: 1, mirrorX: true });
  assert.deepEqual(floats(bytes).map((v) => Math.round(v * 1000) / 1000), [-10, 20, 30, 40, 50, 60]);
  const back = decodeVertices(bytes, { unitsPerMeter: 1, mirrorX: true });
  back.forEach((v, i) => assert.ok(Math.abs(v - positions[i]) < 1e-6, `value ${i}: ${v} vs ${positions[i]}`));
});

test('decoding reads an unaligned view of a larger buffer', () => {
  const backing = new Uint8Array(16);
  const inner = backing.subarray(4);
  inner.set(encodeVertices(new Float32Array([7, 8, 9])));
  assert.deepEqual(Array.from(decodeVertices(inner)), [7, 8, 9]);
});

test('malformed inputs are refused', () => {
  assert.throws(() => encodeVertices(new Float32Array(4)), RangeError);
  assert.throws(() => decodeVertices(new Uint8Array(13)), RangeError);
  assert.throws(() => encodeVertices(new Float32Array(3), { unitsPerMeter: 10 as 1 }), RangeError);
});
