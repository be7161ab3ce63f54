/**
 * Issue 20 item 3: the cornea, the lashes, the tear lines and the caruncles. Each is a valid mesh (the
 * cornea, the lash cards and the tear lines open by design), rides on its host (eyeball or lids) through
 * the fit, every blendshape and the eye bones, and never cuts into the head or an eyeball.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, TemplateVersion, Vec3 } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { placeBoundParts } from '../../../src/geometry/template/bound-parts.ts';
import { buildBlendshapes } from '../../../src/geometry/expressions/blendshapes.ts';
import { checkMesh, countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { boundaryLoops } from '../../../src/geometry/mesh/adjacency.ts';
import { axisAngle, poseVertices } from '../../../tools/skinning.ts';
import { BONE, BOUND_PART_NAMES, OPEN_PARTS, PART_NAMES, type HeadTemplate } from '../../../src/geometry/template/types.ts';

const versions: TemplateVersion[] = ['1.6', '2.0'];
const at = (p: ArrayLike<number>, v: number): Vec3 => [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
const distance = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** The head's triangles within `radius` of either eye: nothing farther can meet an eye's part. */
function headNearEyes(tpl: HeadTemplate, radius: number, positions = tpl.head.positions): Pick<MeshData, 'positions' | 'indices'> {
  const near = (v: number) => [tpl.eyes.left.centre, tpl.eyes.right.centre].some((c) => distance(at(tpl.head.positions, v), c) < radius);
  const kept: number[] = [];
  for (let t = 0; t < tpl.head.indices.length; t += 3) if ([0, 1, 2].some((k) => near(tpl.head.indices[t + k]))) kept.push(tpl.head.indices[t], tpl.head.indices[t + 1], tpl.head.indices[t + 2]);
  return { positions, indices: Uint32Array.from(kept) };
}

for (const version of versions) {
  const tpl = buildTemplate(version);

  test(`${version}: cornea, lashes, tear lines and caruncles are valid meshes clear of the head, the eyeballs and each other`, () => {
    for (const name of BOUND_PART_NAMES) {
      const mesh = tpl.parts[name];
      const open = OPEN_PARTS.includes(name) ? boundaryLoops(mesh.indices) : [];
      const report = checkMesh(mesh, { openBoundaries: open });
      // A flat card has no inside: which way it faces is not a defect (its material is double-sided).
      const expected = { closed: true, manifold: true, outwardFacing: name === 'eyelashes' ? report.outwardFacing : true, selfIntersections: 0, degenerateTriangles: 0, uvOutOfRange: 0, uvOverlaps: 0 };
      assert.deepEqual({ ...report, boundaryLoops: undefined }, { ...expected, boundaryLoops: undefined }, name);
      // Two corneas and two tear lines; four lash cards (upper and lower, each eye).
      assert.equal(open.length, { cornea: 2, tearLine: 2, eyelashes: 4, caruncle: 0 }[name], `${name} boundaries`);
      assert.equal(countIntersectionsBetween(tpl.head, mesh), 0, `${name} x head`);
      for (const eye of ['eyeLeft', 'eyeRight'] as const) assert.equal(countIntersectionsBetween(tpl.parts[eye], mesh), 0, `${name} x ${eye}`);
      for (const other of BOUND_PART_NAMES) if (other > name) assert.equal(countIntersectionsBetween(tpl.parts[other], mesh), 0, `${name} x ${other}`);
    }
  });

  test(`${version}: the cornea covers the iris and bulges over the eyeball`, () => {
    const cornea = tpl.parts.cornea;
    for (const side of ['left', 'right'] as const) {
      const { centre, radius } = tpl.eyes[side];
      const own = Array.from({ length: cornea.positions.length / 3 }, (_, v) => v).filter((v) => Math.sign(at(cornea.positions, v)[0]) === Math.sign(centre[0]));
      const lateral = (v: number) => Math.hypot(at(cornea.positions, v)[0] - centre[0], at(cornea.positions, v)[1] - centre[1]);
      const lift = (v: number) => distance(at(cornea.positions, v), centre) - radius;
      // Its rim is the iris's edge (1.17 cm across); it stands off the eyeball everywhere, most at its apex.
      assert.ok(Math.abs(Math.max(...own.map(lateral)) - 0.585) < 0.01);
      assert.ok(own.every((v) => lift(v) > 0.002), 'off the eyeball');
      const apex = own.reduce((a, v) => (lateral(v) < lateral(a) ? v : a));
      const rim = own.reduce((a, v) => (lateral(v) > lateral(a) ? v : a));
      assert.ok(lift(apex) > lift(rim) + 0.015, `bulge ${lift(apex)} over ${lift(rim)}`);
    }
  });

  test(`${version}: bound parts sit where their bindings put them, and the eye bones turn the corneas with the eyeballs`, () => {
    const placed = placeBoundParts(tpl, { head: tpl.head.positions, eyeLeft: tpl.parts.eyeLeft.positions, eyeRight: tpl.parts.eyeRight.positions });
    for (const name of BOUND_PART_NAMES) placed[name].forEach((x, i) => assert.ok(Math.abs(x - tpl.parts[name].positions[i]) < 1e-4, `${name} ${i}`));
    const pose = new Map([[BONE.eyeLeft, axisAngle([0, 1, 0], 0.3)]]);
    const eye = poseVertices(tpl.parts.eyeLeft.positions, tpl.skins.eyeLeft, tpl.bones, pose);
    const cornea = poseVertices(tpl.parts.cornea.positions, tpl.skins.cornea, tpl.bones, pose);
    const turned = placeBoundParts(tpl, { head: tpl.head.positions, eyeLeft: eye, eyeRight: tpl.parts.eyeRight.positions }).cornea;
    // Skinned (bone) and bound (deformer) the cornea lands in the same place.
    cornea.forEach((x, i) => assert.ok(Math.abs(x - turned[i]) < 1e-3, `cornea ${i}`));
    assert.equal(countIntersectionsBetween({ ...tpl.parts.eyeLeft, positions: eye }, { ...tpl.parts.cornea, positions: cornea }), 0);
  });

  test(`${version}: in every shape that moves a lid or an eyeball the eye's parts follow and cut into neither`, () => {
    const shapes = buildBlendshapes(tpl, { head: tpl.head.positions, parts: Object.fromEntries(PART_NAMES.map((p) => [p, tpl.parts[p].positions])) }, ['expressions', 'visemes']);
    const rims = [...tpl.loops.leftEye, ...tpl.loops.rightEye];
    let checked = 0;
    shapes.head.forEach((shape, k) => {
      const moves = (d: Float32Array, vertices?: number[]) => (vertices ?? Array.from({ length: d.length / 3 }, (_, v) => v)).some((v) => Math.hypot(d[3 * v], d[3 * v + 1], d[3 * v + 2]) > 1e-4);
      const followers = BOUND_PART_NAMES.filter((name) => moves(shapes[name][k].deltas));
      // A shape that moves a lid's margin moves its lashes; one that turns an eyeball, its cornea.
      if (moves(shape.deltas, rims)) assert.ok(followers.includes('eyelashes'), `${shape.name}: lashes follow`);
      if (moves(shapes.eyeLeft[k].deltas) || moves(shapes.eyeRight[k].deltas)) assert.ok(followers.includes('cornea'), `${shape.name}: cornea follows`);
      if (followers.length === 0) return;
      checked++;
      const shaped = (name: 'head' | (typeof PART_NAMES)[number]) => {
        const mesh = name === 'head' ? tpl.head : tpl.parts[name];
        const d = shapes[name][k].deltas;
        return { ...mesh, positions: mesh.positions.map((x, i) => x + d[i]) };
      };
      const head = headNearEyes(tpl, 3, shaped('head').positions);
      for (const name of BOUND_PART_NAMES) {
        const part = shaped(name);
        assert.equal(countIntersectionsBetween(head, part), 0, `${shape.name}: ${name} x head`);
        for (const eye of ['eyeLeft', 'eyeRight'] as const) assert.equal(countIntersectionsBetween(shaped(eye), part), 0, `${shape.name}: ${name} x ${eye}`);
      }
    });
    assert.ok(checked >= 14, `${checked} shapes move the eyes`);
  });
}
