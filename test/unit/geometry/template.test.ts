import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, TemplateVersion, Vec3 } from '../../../src/model/avatar.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { loadCanonicalFace } from '../../../src/pipeline/canonical-face-file.ts';
import { checkMesh, countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { boundaryLoops } from '../../../src/geometry/mesh/adjacency.ts';
import { axisAngle, poseVertices } from '../../../tools/skinning.ts';
import { BONE, BOUND_PART_NAMES, PART_NAMES, type BoundPartName } from '../../../src/geometry/template/types.ts';
import { NECK_CUT_Y } from '../../../src/geometry/template/head-shape.ts';

const versions: TemplateVersion[] = ['1.6', '2.0'];
const at = (positions: ArrayLike<number>, v: number): Vec3 => [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
const distance = (a: Vec3, b: Vec3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const valid = { closed: true, manifold: true, outwardFacing: true, selfIntersections: 0, degenerateTriangles: 0, uvOutOfRange: 0, uvOverlaps: 0 };

test('template sizes: 2.0 detailed, 1.6 light; built once per process', () => {
  const detailed = buildTemplate('2.0'), light = buildTemplate('1.6');
  assert.ok(detailed.head.positions.length / 3 >= 10000);
  assert.ok(light.head.positions.length / 3 <= detailed.head.positions.length / 3 / 3.5);
  assert.equal(detailed.textureSize, 2048);
  assert.equal(light.textureSize, 1024);
  assert.equal(buildTemplate('1.6'), light);
});

/** Per triangle, texture pixels per cm on the surface (square root of the UV area in pixels over the area). */
function texelDensity(mesh: MeshData, textureSize: number): number[] {
  const { positions: p, uvs: uv, indices } = mesh;
  const out: number[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]];
    const e1 = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]), e2 = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
    const area = Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]) / 2;
    const uvArea = Math.abs((uv[2 * b] - uv[2 * a]) * (uv[2 * c + 1] - uv[2 * a + 1]) - (uv[2 * c] - uv[2 * a]) * (uv[2 * b + 1] - uv[2 * a + 1])) / 2;
    out.push(Math.sqrt((uvArea * textureSize * textureSize) / area));
  }
  return out;
}

/** Triangle budgets of a whole avatar without hair (head and every part), from issue 20. */
const TRIANGLE_BUDGET: Record<TemplateVersion, number> = { '1.6': 15000, '2.0': 60000 };

for (const version of versions) {
  const tpl = buildTemplate(version);

  test(`${version}: the avatar without hair stays within ${TRIANGLE_BUDGET[version]} triangles`, () => {
    const triangles = [tpl.head, ...PART_NAMES.map((name) => tpl.parts[name])].reduce((sum, m) => sum + m.indices.length / 3, 0);
    assert.ok(triangles <= TRIANGLE_BUDGET[version], `${triangles} triangles`);
  });

  test(`${version}: head vertices 0..467 are the canonical face, its UVs placed in the atlas`, () => {
    const face = loadCanonicalFace();
    for (let v = 0; v < 468; v++) {
      assert.deepEqual(at(tpl.head.positions, v), at(face.positions, v));
      for (let k = 0; k < 2; k++) assert.ok(Math.abs(tpl.head.uvs[2 * v + k] - (tpl.faceUv.offset[k] + face.uvs[2 * v + k] * tpl.faceUv.scale)) < 1e-6);
    }
    assert.equal(tpl.faceVertexCount, 468);
  });

  test(`${version}: the head with its bust is closed, manifold, outward, without intersections, UVs valid`, () => {
    assert.deepEqual(checkMesh(tpl.head), { ...valid, boundaryLoops: 0 });
    // The only open loops by index are the UV seams, one round each island: the front island, the
    // back island and the neck's front island (their seam behind the ears and under the chin, and
    // down the sides of the neck), the bust's flat bottom and each ear's own island (round its stem).
    const loops = boundaryLoops(tpl.head.indices);
    assert.equal(loops.length, 6);
    const bottom = tpl.head.positions[3 * tpl.bustEdge[0] + 1];
    const level = loops.filter((loop) => loop.every((v) => Math.abs(tpl.head.positions[3 * v + 1] - bottom) < 1e-6));
    assert.equal(level.length, 1, 'the bottom cut is level');
    assert.equal(level[0].length, tpl.bustEdge.length);
    assert.ok(tpl.bustEdge.every((v) => Math.abs(tpl.head.positions[3 * v + 1] - bottom) < 1e-6));
    let lowest = Infinity;
    for (let i = 1; i < tpl.head.positions.length; i += 3) lowest = Math.min(lowest, tpl.head.positions[i]);
    assert.equal(lowest, bottom, 'nothing hangs below the cut');
  });

  test(`${version}: texel density: no triangle below a tenth of the median but the mouth's inside (never from the photo)`, () => {
    const density = texelDensity(tpl.head, tpl.textureSize);
    const median = [...density].sort((a, b) => a - b)[density.length >> 1];
    // The mouth's inside is mapped into the slit between the inner lips in the face's UVs.
    const uv = tpl.head.uvs;
    const slit = tpl.loops.lipsInner.map((v): [number, number] => [uv[2 * v], uv[2 * v + 1]]);
    const inSlit = (x: number, y: number) => {
      let inside = false;
      slit.forEach(([ax, ay], i) => {
        const [bx, by] = slit[(i + 1) % slit.length];
        if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
      });
      return inside;
    };
    const low: number[] = [];
    density.forEach((d, t) => {
      const corners = [0, 1, 2].map((k) => tpl.head.indices[3 * t + k]);
      const centre = [0, 1].map((k) => corners.reduce((sum, v) => sum + uv[2 * v + k], 0) / 3);
      if (d < median / 10 && !inSlit(centre[0], centre[1])) low.push(t);
    });
    assert.deepEqual(low, [], `${low.length} triangles below ${(median / 10).toFixed(1)} px/cm`);
  });

  test(`${version}: texel density: the face gets at least twice that of the back of the head and of the neck`, () => {
    const density = texelDensity(tpl.head, tpl.textureSize);
    const { positions, indices } = tpl.head;
    const median = (inside: (v: number) => boolean) => {
      const values = density.filter((_, t) => [0, 1, 2].every((k) => inside(indices[3 * t + k])));
      return values.sort((a, b) => a - b)[values.length >> 1];
    };
    const face = new Set(tpl.regions.face), neck = new Set(tpl.regions.neck), skin = new Set(tpl.regions.skin);
    // The back of the head: skin above the neck, behind the head's centre.
    const back = (v: number) => skin.has(v) && positions[3 * v + 1] > -10 && positions[3 * v + 2] < -5.5;
    const [f, n, b] = [median((v) => face.has(v)), median((v) => neck.has(v)), median(back)];
    assert.ok(f >= 2 * n, `face ${f.toFixed(1)} px/cm against neck ${n.toFixed(1)}`);
    assert.ok(f >= 2 * b, `face ${f.toFixed(1)} px/cm against back of the head ${b.toFixed(1)}`);
  });

  test(`${version}: the bust reaches the shoulders and the top of the chest`, () => {
    let [left, right, front, top] = [-Infinity, Infinity, -Infinity, -Infinity];
    for (const v of tpl.regions.bust) {
      const [x, y, z] = at(tpl.head.positions, v);
      [left, right, front, top] = [Math.max(left, x), Math.min(right, x), Math.max(front, z), Math.max(top, y)];
    }
    assert.ok(left - right > 36 && left - right < 42, `shoulder breadth ${left - right}`);
    // The sides fall in below the shoulders, where a sculpted bust cuts the arms away: straight sides read as a block.
    const bottom = tpl.bustEdge.map((v) => at(tpl.head.positions, v)[0]);
    const bottomBreadth = Math.max(...bottom) - Math.min(...bottom);
    assert.ok(bottomBreadth > 24 && bottomBreadth < left - right - 8, `breadth at the bottom ${bottomBreadth.toFixed(1)}, at the shoulders ${(left - right).toFixed(1)}`);
    assert.ok(front > 3, `chest front at z ${front}`);
    assert.ok(top <= NECK_CUT_Y + 1e-4, 'the bust starts at the neck cut');
  });

  test(`${version}: seen from the side, the chest and the back curve down from the shoulders and recede below`, () => {
    // The side view's outline: per 0.25 cm of height, the bust's furthest reach in front and behind.
    const front = new Map<number, number>(), back = new Map<number, number>();
    for (const v of tpl.regions.bust) {
      const [, y, z] = at(tpl.head.positions, v);
      const bin = Math.round(y * 4) / 4;
      front.set(bin, Math.max(front.get(bin) ?? -Infinity, z));
      back.set(bin, Math.max(back.get(bin) ?? -Infinity, -z));
    }
    for (const [name, reach] of [['chest', front], ['back', back]] as const) {
      const rows = [...reach].sort((a, b) => b[0] - a[0]);
      const deepest = Math.max(...rows.map((r) => r[1]));
      // The full depth is a plateau a few centimetres tall, over which the relief moves the single deepest row by
      // hundredths: its middle is where the rows within 1 mm of it lie, on average.
      const plateau = rows.filter((r) => r[1] >= deepest - 0.1);
      const deepestAt = plateau.reduce((sum, r) => sum + r[0], 0) / plateau.length;
      // A box's edge would put the full depth just under the shoulder line (2.5 to 5 cm below the neck cut).
      assert.ok(deepestAt <= NECK_CUT_Y - 7, `the ${name} is deepest about y ${deepestAt.toFixed(2)}, the neck cut at ${NECK_CUT_Y}`);
      assert.ok(rows[rows.length - 1][1] < deepest - 0.5, `the ${name} at the bottom ${rows[rows.length - 1][1].toFixed(2)}, deepest ${deepest.toFixed(2)}`);
    }
  });

  test(`${version}: seen from the side, the skin under the chin runs back nearly level to the throat`, () => {
    // Face vertex 152 is the chin's tip. From half a centimetre behind it back to z = 1 (1.3 cm ahead of the throat's
    // front) the midline's lowest skin above the neck cut is the chin's underside: 1.13 cm below the tip at most (before
    // the mouth's floor it sloped from the chin down the throat, 1.7 cm below on 1.6 and 1.8 on 2.0, a double chin).
    const [, chinY, chinZ] = at(tpl.head.positions, 152);
    let lowest = Infinity;
    for (let v = 0; v < tpl.head.positions.length / 3; v++) {
      const [x, y, z] = at(tpl.head.positions, v);
      if (Math.abs(x) < 0.3 && z >= 1 && z <= chinZ - 0.5 && y < chinY && y > NECK_CUT_Y) lowest = Math.min(lowest, y);
    }
    assert.ok(chinY - lowest <= 1.2, `the skin under the chin reaches ${(chinY - lowest).toFixed(2)} cm below the chin's tip`);
  });

  test(`${version}: seen from the side, the back of the head stands out over the nape, which curves in under it`, () => {
    // The midline's back skin (behind the neck's axis) per half-centimetre of height: the occiput is its furthest back
    // between y = -2 and 4, the nape its furthest forward between -12 and -4. Before the occiput, one straight slope
    // ran from the skull down the neck (occiput 3.1 cm behind the nape, and the nape 0.2-0.3 cm ahead of the cut).
    const back = new Map<number, number>();
    for (let v = 0; v < tpl.head.positions.length / 3; v++) {
      const [x, y, z] = at(tpl.head.positions, v);
      if (Math.abs(x) < 0.3 && z < -6 && y > NECK_CUT_Y) back.set(Math.floor(y * 2), Math.min(back.get(Math.floor(y * 2)) ?? Infinity, z));
    }
    const rows = [...back].sort((a, b) => a[0] - b[0]);
    const within = (lo: number, hi: number) => rows.filter(([row]) => row / 2 >= lo && row / 2 < hi).map(([, z]) => z);
    const occiput = Math.min(...within(-2, 4)), nape = Math.max(...within(-12, -4)), cut = rows[0][1];
    assert.ok(nape - occiput >= 3.6, `the occiput stands ${(nape - occiput).toFixed(2)} cm behind the nape`);
    assert.ok(nape - cut >= 0.6, `the nape lies ${(nape - cut).toFixed(2)} cm ahead of the neck's back at the cut`);
  });

  test(`${version}: eyes, teeth and tongue are closed and valid and do not cut into the head or each other`, () => {
    // The parts riding on the eyes and lids are checked in eye-parts.test.ts.
    for (const name of PART_NAMES.filter((p) => !BOUND_PART_NAMES.includes(p as BoundPartName))) {
      assert.deepEqual(checkMesh(tpl.parts[name]), { ...valid, boundaryLoops: 0 }, name);
      assert.equal(countIntersectionsBetween(tpl.head, tpl.parts[name]), 0, `${name} x head`);
    }
    assert.equal(countIntersectionsBetween(tpl.parts.teeth, tpl.parts.tongue), 0);
  });

  test(`${version}: dimensions follow the adult head table`, () => {
    const bounds = (m: MeshData, k: number) => {
      let lo = Infinity, hi = -Infinity;
      for (let i = k; i < m.positions.length; i += 3) {
        lo = Math.min(lo, m.positions[i]);
        hi = Math.max(hi, m.positions[i]);
      }
      return [lo, hi];
    };
    const [, top] = bounds(tpl.head, 1);
    const chin = tpl.head.positions[3 * 152 + 1];
    assert.ok(Math.abs(top - chin - 23.5) < 1, `chin to vertex ${top - chin}`);
    const bust = new Set(tpl.regions.bust);
    const above = { positions: tpl.head.positions.filter((_, i) => !bust.has(Math.floor(i / 3))) } as MeshData;
    const [back, front] = bounds(above, 2);
    assert.ok(front - back > 19.8 && front - back < 23, `depth with nose ${front - back}`);
    const ipd = distance(tpl.eyes.left.centre, tpl.eyes.right.centre);
    assert.ok(Math.abs(ipd - 6.3) < 0.3, `interpupillary ${ipd}`);
    assert.ok(tpl.eyes.left.centre[0] > 0, 'the left eye is on +X (the face looks along +Z)');
    assert.equal(tpl.eyes.left.radius, 1.2);
  });

  test(`${version}: loops and regions partition the head`, () => {
    const { loops, regions } = tpl;
    assert.deepEqual([loops.faceOval.length, loops.lipsInner.length, loops.lipsOuter.length, loops.leftEye.length, loops.rightEye.length], [36, 20, 20, 16, 16]);
    const parts = [regions.face, regions.skin, regions.bust, regions.earLeft, regions.earRight, regions.mouthBag, regions.eyeSocketLeft, regions.eyeSocketRight];
    const all = parts.flat().sort((a, b) => a - b);
    assert.deepEqual(all, Array.from({ length: tpl.head.positions.length / 3 }, (_, i) => i));
    assert.ok(regions.neck.length > 0 && regions.neck.every((v) => regions.skin.includes(v)));
    assert.deepEqual([...regions.ears].sort((a, b) => a - b), [...regions.earLeft, ...regions.earRight].sort((a, b) => a - b));
    assert.ok(regions.earLeft.every((v) => tpl.head.positions[3 * v] > 7));
    assert.ok(regions.earRight.every((v) => tpl.head.positions[3 * v] < -7));
  });

  test(`${version}: skeleton and 4-influence skin weights summing to one`, () => {
    assert.deepEqual(tpl.bones.map((b) => b.name), ['root', 'spine', 'chest', 'neck', 'head', 'jaw', 'eyeLeft', 'eyeRight', 'tongue']);
    tpl.bones.forEach((b, i) => assert.ok(b.parent < i));
    for (const [name, skin] of Object.entries(tpl.skins)) {
      const mesh = name === 'head' ? tpl.head : tpl.parts[name as keyof typeof tpl.parts];
      assert.equal(skin.weights.length, (mesh.positions.length / 3) * 4, name);
      for (let v = 0; v < skin.weights.length / 4; v++) {
        const sum = skin.weights[4 * v] + skin.weights[4 * v + 1] + skin.weights[4 * v + 2] + skin.weights[4 * v + 3];
        assert.ok(Math.abs(sum - 1) < 1e-5, `${name} vertex ${v} sums to ${sum}`);
      }
    }
  });

  test(`${version}: rotating the jaw by 20 degrees opens the mouth without tearing or folding; the upper head stays`, () => {
    const pose = new Map([[BONE.jaw, axisAngle([1, 0, 0], (20 * Math.PI) / 180)]]);
    const head = poseVertices(tpl.head.positions, tpl.skins.head, tpl.bones, pose);
    const gap = (p: ArrayLike<number>) => p[3 * 13 + 1] - p[3 * 14 + 1];
    assert.ok(gap(head) > gap(tpl.head.positions) + 2, `lip gap ${gap(tpl.head.positions)} -> ${gap(head)}`);
    for (const v of [10, 1, 33, 263, 13]) assert.ok(distance(at(head, v), at(tpl.head.positions, v)) < 0.05, `vertex ${v} stays`);
    assert.ok(at(head, 152)[1] < at(tpl.head.positions, 152)[1] - 1.5, 'the chin drops');
    assert.deepEqual(checkMesh({ ...tpl.head, positions: head }), { ...valid, boundaryLoops: 0 });
    const teeth = poseVertices(tpl.parts.teeth.positions, tpl.skins.teeth, tpl.bones, pose);
    const lower = new Set(tpl.lowerTeeth);
    for (let v = 0; v < teeth.length / 3; v++) {
      const moved = distance(at(teeth, v), at(tpl.parts.teeth.positions, v));
      assert.ok(lower.has(v) ? moved > 0.5 : moved < 1e-5, `tooth vertex ${v}`);
    }
    const tongue = poseVertices(tpl.parts.tongue.positions, tpl.skins.tongue, tpl.bones, pose);
    assert.ok(distance(at(tongue, 0), at(tpl.parts.tongue.positions, 0)) > 0.5, 'the tongue follows');
    assert.equal(countIntersectionsBetween({ ...tpl.head, positions: head }, { ...tpl.parts.teeth, positions: teeth }), 0);
    assert.equal(countIntersectionsBetween({ ...tpl.head, positions: head }, { ...tpl.parts.tongue, positions: tongue }), 0);
  });

  test(`${version}: turning the head 40 degrees on the neck bends the neck smoothly; the shoulders stay`, () => {
    const pose = new Map([[BONE.neck, axisAngle([0, 1, 0], (40 * Math.PI) / 180)]]);
    const head = poseVertices(tpl.head.positions, tpl.skins.head, tpl.bones, pose);
    assert.deepEqual(checkMesh({ ...tpl.head, positions: head }), { ...valid, boundaryLoops: 0 });
    // The nose tip swings round with the head; the shoulder tips and the bust's bottom do not move.
    assert.ok(at(head, 1)[0] > at(tpl.head.positions, 1)[0] + 4, 'the face turns');
    const bust = tpl.regions.bust.map((v) => ({ v, p: at(tpl.head.positions, v) }));
    const tips = bust.filter(({ p }) => Math.abs(p[0]) > 17);
    for (const { v, p } of tips) assert.ok(distance(at(head, v), p) < 0.05, `shoulder vertex ${v} moves`);
    // Smoothly: along the neck, no ring of skin turns much more than the one below it.
    const turn = (v: number) => Math.atan2(head[3 * v], head[3 * v + 2] + 6) - Math.atan2(tpl.head.positions[3 * v], tpl.head.positions[3 * v + 2] + 6);
    const front = tpl.regions.neck.filter((v) => Math.abs(tpl.head.positions[3 * v]) < 0.3 && tpl.head.positions[3 * v + 2] > -3);
    const steps = front.map((v) => ({ y: tpl.head.positions[3 * v + 1], turn: turn(v) })).sort((a, b) => a.y - b.y);
    for (let i = 1; i < steps.length; i++) {
      const rate = (steps[i].turn - steps[i - 1].turn) / Math.max(0.2, steps[i].y - steps[i - 1].y);
      assert.ok(Math.abs(rate) < 0.25, `neck front turns ${rate.toFixed(2)} rad/cm at y ${steps[i].y.toFixed(1)}`);
    }
  });

  test(`${version}: the neck tilted back 30 degrees folds no nape, the head nodded 30 degrees no throat`, () => {
    // Over the sides' 4.5 cm fades (PRESSED_FADE) the nape folded from 20 degrees (122 pairs of crossing triangles on
    // 2.0) and the throat under the chin at 30 (2.0 262, 1.6 126).
    for (const [bone, degrees] of [[BONE.neck, -30], [BONE.head, 30]]) {
      const head = poseVertices(tpl.head.positions, tpl.skins.head, tpl.bones, new Map([[bone, axisAngle([1, 0, 0], (degrees * Math.PI) / 180)]]));
      assert.equal(checkMesh({ ...tpl.head, positions: head }).selfIntersections, 0, `bone ${bone} at ${degrees} degrees`);
    }
  });

  test(`${version}: the eye bones turn the eyeballs about their centres`, () => {
    const eye = tpl.parts.eyeLeft, centre = tpl.eyes.left.centre;
    const posed = poseVertices(eye.positions, tpl.skins.eyeLeft, tpl.bones, new Map([[BONE.eyeLeft, axisAngle([0, 1, 0], 0.3)]]));
    for (let v = 0; v < posed.length / 3; v++) assert.ok(Math.abs(distance(at(posed, v), centre) - tpl.eyes.left.radius) < 1e-4);
    // Vertex 0 is the pupil's centre: it swings towards +X.
    assert.ok(at(posed, 0)[0] - centre[0] > 0.3);
    const still = poseVertices(tpl.parts.eyeRight.positions, tpl.skins.eyeRight, tpl.bones, new Map([[BONE.eyeLeft, axisAngle([0, 1, 0], 0.3)]]));
    assert.deepEqual(still, tpl.parts.eyeRight.positions);
  });

  test(`${version}: the iris is the promised disc of the eye texture`, () => {
    const eye = tpl.parts.eyeLeft, centre = tpl.eyes.left.centre;
    const iris = tpl.irisUv;
    for (let v = 0; v < eye.positions.length / 3; v++) {
      const p = at(eye.positions, v);
      const lateral = Math.hypot(p[0] - centre[0], p[1] - centre[1]);
      const rho = Math.hypot(eye.uvs[2 * v] - iris.centre[0], eye.uvs[2 * v + 1] - iris.centre[1]);
      const front = p[2] > centre[2];
      if (front && lateral < 0.585 - 1e-3) assert.ok(rho < iris.radius + 1e-6, `vertex ${v} inside the iris maps inside the disc`);
      if (rho < iris.radius - 1e-6) assert.ok(front && lateral < 0.585 + 1e-3, `vertex ${v} in the disc is on the iris`);
    }
    assert.ok(iris.pupilRadius > 0 && iris.pupilRadius < iris.radius);
  });
}
