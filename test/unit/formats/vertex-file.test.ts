import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VertexFileError, parseVertexFile } from '../../../src/formats/read/vertex-file.ts';
import { writeVertexFile } from '../../../src/formats/write/vertex-file.ts';

const codeOf = (bytes: Uint8Array): number | undefined => {
  try {
    parseVertexFile(bytes);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof VertexFileError);
    return error.code;
  }
};

test('round trip, also from an unaligned view into a larger buffer', () => {
  const positions = Float32Array.of(1.5, -2.25, 1e-30, 3.4e38, -0, 12345.678, 0.1, 0.2, 0.3);
  const bytes = writeVertexFile(positions);
  assert.equal(bytes.length, 36);
  assert.deepEqual(parseVertexFile(bytes), positions);
  for (const offset of [1, 2, 3, 5]) {
    const larger = new Uint8Array(offset + bytes.length + 7).fill(0xff);
    larger.set(bytes, offset);
    assert.deepEqual(parseVertexFile(larger.subarray(offset, offset + bytes.length)), positions);
  }
});

test('the bytes are little-endian IEEE floats, x y z per vertex', () => {
  const bytes = Uint8Array.of(0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0, 0);
  assert.deepEqual(parseVertexFile(bytes), Float32Array.of(1, -2, 0));
  assert.deepEqual(writeVertexFile(Float32Array.of(1, -2, 0)), bytes);
});

test('every bad body gets its code', () => {
  assert.equal(codeOf(new Uint8Array(0)), 40446);
  for (const size of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 25]) assert.equal(codeOf(new Uint8Array(size)), 30600, `${size} bytes`);
  for (const bad of [NaN, Infinity, -Infinity]) {
    for (const at of [0, 4, 5]) {
      const values = Float32Array.of(1, 2, 3, 4, 5, 6);
      values[at] = bad;
      assert.equal(codeOf(writeVertexFile(values)), 30601, `${bad} at value ${at}`);
    }
  }
  assert.equal(codeOf(new Uint8Array(12)), undefined);
});
