import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/formats/read/input-error.ts';
import { detectHeadUnit, objToMeshData, readObj } from '../../../src/formats/read/obj-read.ts';

const obj = (s: string) => new TextEncoder().encode(s);

function refused(text: string | Uint8Array, code: number): string {
  try {
    readObj(typeof text === 'string' ? obj(text) : text);
  } catch (err) {
    assert.ok(err instanceof InputError, String(err));
    assert.equal(err.code, code, err.message);
    return err.message;
  }
  assert.fail(`expected refusal ${code}`);
}

const square = `
# a unit square as one quad
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
`;

test('triangles and polygons: polygons are fan-triangulated in file order', () => {
  const m = readObj(obj(`${square}f 1 2 3 4\nv 2 0 0\nv 3 0 0\nv 3 1 0\nv 2.5 2 0\nv 2 1 0\nf 5 6 7 8 9\n`));
  assert.deepEqual(Array.from(m.positions.subarray(0, 6)), [0, 0, 0, 1, 0, 0]);
  assert.deepEqual(Array.from(m.indices), [0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7, 4, 7, 8]);
  assert.equal(m.uvIndices, undefined);
  assert.equal(m.normalIndices, undefined);
});

test('negative indices count back from the last element read', () => {
  const m = readObj(obj(`${square}vt 0 0\nvt 1 0\nvt 1 1\nf -4/-3 -3/-2 -2/-1\nv 5 5 5\nf -1 -2 -3\n`));
  assert.deepEqual(Array.from(m.indices), [0, 1, 2, 4, 3, 2]);
  assert.deepEqual(Array.from(m.uvIndices!.subarray(0, 3)), [0, 1, 2]);
});

test('corner forms v/vt, v//vn and v/vt/vn', () => {
  const base = `${square}vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n`;
  const a = readObj(obj(`${base}f 1/1 2/2 3/3 4/4\n`));
  assert.deepEqual(Array.from(a.uvIndices!), [0, 1, 2, 0, 2, 3]);
  assert.equal(a.normalIndices, undefined);
  const b = readObj(obj(`${base}f 1//1 2//1 3//1\n`));
  assert.deepEqual(Array.from(b.normalIndices!), [0, 0, 0]);
  assert.equal(b.uvIndices, undefined);
  const c = readObj(obj(`${base}f 1/1/1 2/2/1 3/3/1\n`));
  assert.deepEqual(Array.from(c.uvIndices!), [0, 1, 2]);
  assert.deepEqual(Array.from(c.normalIndices!), [0, 0, 0]);
  assert.deepEqual(Array.from(c.uvs.subarray(4, 6)), [1, 1]);
});

test('groups, objects, materials, smoothing, lines, comments, CRLF and continuations are taken in stride', () => {
  const text = [
    'mtllib head.mtl',
    'o Head',
    'g face skin',
    'usemtl Skin_01',
    's 1',
    'v 0 0 0 0.5 0.5 0.5   # with a vertex colour',
    'v 1.0e0 0 0',
    'v 1 1E+0 -0',
    'vp 0.5',
    'l 1 2',
    's off',
    'f 1 2 \\',
    '  3',
    'cstype bspline',
  ].join('\r\n');
  const m = readObj(obj(text));
  assert.deepEqual(Array.from(m.indices), [0, 1, 2]);
  assert.deepEqual(Array.from(m.positions), [0, 0, 0, 1, 0, 0, 1, 1, -0]);
});

test('a vt with one number has v = 0; corners without vt in a textured file get (0, 0)', () => {
  const m = readObj(obj(`${square}vt 0.25\nvt 0.5 0.75\nf 1/1 2/2 3\n`));
  assert.deepEqual(Array.from(m.uvs), [0.25, 0, 0.5, 0.75, 0, 0]);
  assert.deepEqual(Array.from(m.uvIndices!), [0, 1, 2]);
});

test('not an OBJ: 30012', () => {
  refused('', 30012);
  refused('# only a comment\n', 30012);
  refused(`${square}`, 30012); // vertices but no faces
  refused(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 30012);
  refused('hello world\nthis is text\n', 30012);
});

test('a broken OBJ: 30013', () => {
  assert.match(refused(`${square}f 1 2 5\n`, 30013), /line 7.*out of range/);
  refused(`${square}f 0 1 2\n`, 30013);
  refused(`${square}f -5 1 2\n`, 30013);
  refused(`${square}f 1 2\n`, 30013);
  refused(`${square}f 1/9 2/9 3/9\n`, 30013);
  refused(`${square}f 1//2 2//2 3//2\n`, 30013);
  refused(`${square}f 1.5 2 3\n`, 30013);
  refused(`${square}f 1/2/3/4 2 3\n`, 30013);
  refused(`${square}f a b c\n`, 30013);
  refused('v 1 nan 2\nf 1 1 1\n', 30013);
  refused('v 1 2\nf 1 1 1\n', 30013);
  refused('v 1 x 2\nf 1 1 1\n', 30013);
});

test('objToMeshData splits vertices where uvs differ and makes smooth normals otherwise', () => {
  // Two triangles sharing the edge 1-3, with different uvs on one side of it (a seam).
  const m = readObj(obj(`${square}vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\nf 1/1 2/2 3/3\nf 1/5 3/3 4/4\n`));
  const mesh = objToMeshData(m);
  // Position 1 appears with uv 1 and uv 5: 5 vertices for 4 positions.
  assert.equal(mesh.positions.length / 3, 5);
  assert.equal(mesh.indices.length, 6);
  for (let c = 0; c < 6; c++) {
    const v = mesh.indices[c];
    const p = m.indices[c];
    assert.deepEqual(Array.from(mesh.positions.subarray(v * 3, v * 3 + 3)), Array.from(m.positions.subarray(p * 3, p * 3 + 3)));
    const t = m.uvIndices![c];
    assert.deepEqual(Array.from(mesh.uvs.subarray(v * 2, v * 2 + 2)), Array.from(m.uvs.subarray(t * 2, t * 2 + 2)));
  }
  // Counter-clockwise in the xy plane: normals along +z, also on both copies of the seam vertex.
  for (let v = 0; v < 5; v++) assert.deepEqual(Array.from(mesh.normals.subarray(v * 3, v * 3 + 3)), [0, 0, 1]);
});

test('objToMeshData keeps file normals when every corner has one', () => {
  const m = readObj(obj(`${square}vn 0 0 2\nvn 0 1 0\nf 1//1 2//1 3//2\n`));
  const mesh = objToMeshData(m);
  assert.equal(mesh.positions.length / 3, 3);
  assert.deepEqual(Array.from(mesh.normals), [0, 0, 1, 0, 0, 1, 0, 1, 0]);
  assert.deepEqual(Array.from(mesh.uvs), [0, 0, 0, 0, 0, 0]);
});

test('the unit of a head mesh is told from its size, stray points aside', () => {
  // A 16 x 24 x 20 cm box of points standing for a head, plus a stray point far away.
  const head: number[] = [];
  for (let i = 0; i < 1000; i++) head.push(((i * 7) % 17) - 8, ((i * 11) % 25) - 12, ((i * 13) % 21) - 10);
  const withStray = (scale: number) => Float32Array.from([...head.map((v) => v * scale), 500 * scale, 0, 0]);
  assert.deepEqual(detectHeadUnit(withStray(1)), { unit: 'cm', toCentimetres: 1 });
  assert.deepEqual(detectHeadUnit(withStray(0.01)), { unit: 'm', toCentimetres: 100 });
  assert.deepEqual(detectHeadUnit(withStray(10)), { unit: 'mm', toCentimetres: 0.1 });
  // Head and shoulders (55 cm wide) are still centimetres; a small head in metres (0.2) still metres.
  assert.equal(detectHeadUnit(Float32Array.from([-27.5, 0, 0, 27.5, 30, 10])).unit, 'cm');
  assert.equal(detectHeadUnit(Float32Array.from([-0.08, 0, 0, 0.08, 0.2, 0.1])).unit, 'm');
});
