import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCanonicalFace } from '../../../src/pipeline/canonical-face-file.ts';
import { openFace } from '../../../src/geometry/template/face-parts.ts';
import { readFields, repeatedFloats, repeatedVarints } from '../../../src/formats/read/protobuf.ts';
import { boundaryLoops } from '../../../src/geometry/mesh/adjacency.ts';

test('the protobuf reader reads varints, packed and unpacked repeated fields', () => {
  // field 1 varint 300; field 2 float 1.5 (unpacked, twice); field 3 packed varints [1, 150]; field 4 packed floats [2.5]
  const bytes = new Uint8Array([0x08, 0xac, 0x02, 0x15, 0, 0, 0xc0, 0x3f, 0x15, 0, 0, 0xc0, 0x3f, 0x1a, 0x03, 0x01, 0x96, 0x01, 0x22, 0x04, 0, 0, 0x20, 0x40]);
  const fields = readFields(bytes);
  assert.deepEqual(fields[0], { field: 1, wire: 0, value: 300 });
  assert.deepEqual(repeatedFloats(fields, 2), [1.5, 1.5]);
  assert.deepEqual(repeatedVarints(fields, 3), [1, 150]);
  assert.deepEqual(repeatedFloats(fields, 4), [2.5]);
});

test('the canonical face from @mediapipe/face_mesh: 468 vertices in cm, 898 triangles, v-up UVs', () => {
  const face = loadCanonicalFace();
  assert.equal(face.positions.length, 468 * 3);
  assert.equal(face.indices.length, 898 * 3);
  // Landmark 1 is the tip of the nose, the face's most forward point.
  assert.deepEqual(Array.from(face.positions.slice(3, 6), (x) => +x.toFixed(4)), [0, -1.1269, 7.4756]);
  let front = 0;
  for (let v = 0; v < 468; v++) if (face.positions[3 * v + 2] > face.positions[3 * front + 2]) front = v;
  assert.equal(front, 4, 'the nose is the most forward part');
  // v is flipped to point up: the forehead (10) is above the chin (152) in UV too.
  assert.ok(face.uvs[2 * 10 + 1] > face.uvs[2 * 152 + 1]);
});

test('opening the face leaves the oval, the inner lips and both eyelid contours as its border', () => {
  const { indices, loops } = openFace(loadCanonicalFace());
  const border = boundaryLoops(indices).map((l) => [...l].sort((a, b) => a - b).join());
  for (const loop of [loops.faceOval, loops.lipsInner, loops.leftEye, loops.rightEye]) assert.ok(border.includes([...loop].sort((a, b) => a - b).join()));
  assert.equal(border.length, 4);
  assert.equal(loops.faceOval[0], 10);
  assert.equal(loops.lipsOuter.length, 20);
  assert.equal(loops.leftEyebrow.length, 10);
});
