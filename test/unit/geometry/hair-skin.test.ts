import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, Skin, TemplateVersion } from '../../../src/model/avatar.ts';
import { BONE } from '../../../src/geometry/template/types.ts';
import { hairSkin } from '../../../src/geometry/hair/hair-skin.ts';
import { hairLibrary } from '../../../src/geometry/hair/library.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';
import { axisAngle, poseVertices } from '../../../tools/skinning.ts';

/** Per vertex, bone -> weight. */
const rowsOf = (skin: Skin): Map<number, number>[] =>
  Array.from({ length: skin.weights.length / 4 }, (_, v) => {
    const row = new Map<number, number>();
    for (let k = 0; k < 4; k++) if (skin.weights[4 * v + k] > 0) row.set(skin.joints[4 * v + k], (row.get(skin.joints[4 * v + k]) ?? 0) + skin.weights[4 * v + k]);
    return row;
  });

test('hair takes the skin under it: the head (with the jaw\'s share) above, the neck below, its neighbours\' in the air', () => {
  // A closed box 10 cm tall: its top corners on the head and jaw, its bottom ones on the neck.
  const corners = [[-5, -5, -5], [5, -5, -5], [5, 5, -5], [-5, 5, -5], [-5, -5, 5], [5, -5, 5], [5, 5, 5], [-5, 5, 5]];
  const box = new Float32Array(corners.flat());
  const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1, 6, 5, 0, 4, 7, 0, 7, 3];
  const joints = new Uint16Array(32), weights = new Float32Array(32);
  corners.forEach(([, y], v) => {
    if (y > 0) joints.set([BONE.head, BONE.jaw], 4 * v), weights.set([0.7, 0.3], 4 * v);
    else joints[4 * v] = BONE.neck, weights[4 * v] = 1;
  });
  // A strip down the box's +X side, 0.5 cm off it, and a strip 6 cm out in the air beside it, joined by a rung at the top.
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= 8; i++) positions.push(5.5, 4 - i, 0, 5.5, 4 - i, 1);
  for (let i = 0; i < 8; i++) indices.push(2 * i, 2 * i + 2, 2 * i + 1, 2 * i + 1, 2 * i + 2, 2 * i + 3);
  const airStart = positions.length / 3;
  for (let i = 0; i <= 8; i++) positions.push(11, 4 - i, 0, 11, 4 - i, 1);
  for (let i = 0; i < 8; i++) indices.push(airStart + 2 * i, airStart + 2 * i + 2, airStart + 2 * i + 1, airStart + 2 * i + 1, airStart + 2 * i + 2, airStart + 2 * i + 3);
  indices.push(0, airStart, 1);
  const hair: MeshData = { positions: new Float32Array(positions), normals: new Float32Array(positions.length), uvs: new Float32Array((positions.length / 3) * 2), indices: new Uint32Array(indices) };
  const rows = rowsOf(hairSkin(hair, TriangleBvh.build(box, new Uint32Array(faces)), faces, { joints, weights }));
  for (const row of rows) {
    assert.ok(Math.abs([...row.values()].reduce((s, w) => s + w, 0) - 1) < 1e-6);
    assert.ok(!row.has(BONE.jaw), 'hair never follows the jaw');
  }
  // On the skin: the box's own weights where it lies, linear in height between the corners, the jaw's share on the head.
  for (let i = 0; i <= 8; i++) {
    const head = (4 - i + 5) / 10;
    assert.ok(Math.abs((rows[2 * i].get(BONE.head) ?? 0) - head) < 1e-3, `row ${i}: head ${rows[2 * i].get(BONE.head)}, skin ${head}`);
  }
  // In the air the strip is evened: its weights change more smoothly down it than the skin's beside it do... and still
  // run from more head at the top to more neck at the bottom.
  const airHead = Array.from({ length: 9 }, (_, i) => rows[airStart + 2 * i].get(BONE.head) ?? 0);
  for (let i = 1; i < 9; i++) assert.ok(airHead[i] <= airHead[i - 1] + 1e-9, `air row ${i}`);
  assert.ok(airHead[0] > airHead[8]);
});

/** The poses a user gives the rig most: the neck tilted back and forward, the head back and nodded, the neck turned, both rolled. */
const POSES: [string, number, [number, number, number], number][] = [
  ['neck back 30°', BONE.neck, [1, 0, 0], -30],
  ['neck forward 30°', BONE.neck, [1, 0, 0], 30],
  ['head back 30°', BONE.head, [1, 0, 0], -30],
  ['head nodded 30°', BONE.head, [1, 0, 0], 30],
  ['neck turned 40°', BONE.neck, [0, 1, 0], 40],
  ['neck rolled 30°', BONE.neck, [0, 0, 1], 30],
  ['head rolled 30°', BONE.head, [0, 0, 1], 30],
];

/** How deep (cm) the hair's deepest vertex lies inside the head and bust in each pose. */
function deepestInPoses(tpl: ReturnType<typeof loadTemplateView>, hair: MeshData, skin: Skin): number[] {
  const head = tpl.meshes[0];
  const hit = emptyClosestPoint();
  return POSES.map(([, bone, axis, degrees]) => {
    const pose = new Map([[bone, axisAngle(axis, (degrees * Math.PI) / 180)]]);
    const body = TriangleBvh.build(poseVertices(head.geometry.positions, head.skin, tpl.source.bones, pose), head.geometry.indices);
    const posed = poseVertices(hair.positions, skin, tpl.source.bones, pose);
    let deepest = 0;
    for (let v = 0; v < posed.length; v += 3) if (body.closestPoint(posed[v], posed[v + 1], posed[v + 2], hit) && hit.inside) deepest = Math.max(deepest, hit.distance);
    return deepest;
  });
}

/**
 * Deepest a hair vertex may go into the body in POSES, cm. Hair squeezed into a crease goes in a little (the
 * templates' deepest: 0.46 cm, 1.6's shoulder-length hair with the head back); on the head bone alone 5-9 cm.
 */
const MAX_DEPTH = 1;

for (const version of ['2.0', '1.6'] as TemplateVersion[]) {
  test(`template ${version}: short hair rides the head bone alone; long hair stays on the skin when the neck and head turn`, () => {
    const tpl = loadTemplateView(version);
    const lib = hairLibrary(tpl.source, tpl.hairCoverage);
    for (const { style, mesh, skin } of lib.styles) {
      const rows = rowsOf(skin);
      assert.equal(rows.length, mesh.positions.length / 3);
      assert.ok(rows.every((row) => !row.has(BONE.jaw)), `${style.name} follows the jaw`);
      const onHead = rows.every((row) => row.get(BONE.head) === 1);
      if (['shaved', 'short'].includes(style.length)) {
        assert.ok(onHead, `${style.name}: short hair off the head bone`);
        continue;
      }
      if (onHead) continue; // a bun, held on the crown
      const deepest = deepestInPoses(tpl, mesh, skin);
      POSES.forEach(([name], i) => assert.ok(deepest[i] < MAX_DEPTH, `${style.name}, ${name}: ${deepest[i].toFixed(2)} cm inside`));
    }
    // On the head bone alone, long hair swings through the neck and the back.
    const long = lib.styles.find((s) => s.style.name === 'long-straight')!;
    const rigid: Skin = { joints: long.skin.joints.map((_, i) => (i % 4 === 0 ? BONE.head : 0)), weights: long.skin.weights.map((_, i) => (i % 4 === 0 ? 1 : 0)) };
    assert.ok(Math.max(...deepestInPoses(tpl, long.mesh, rigid)) > 4);
  });
}
