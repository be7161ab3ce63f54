import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, Vec3 } from '../../../src/model/avatar.ts';
import { cameraFrame, projectPoint, type Camera } from '../../../src/geometry/render/camera.ts';
import { liftPoint, pickSurface, visiblePoints } from '../../../src/geometry/render/surface-pick.ts';
import { quad, uvSphere } from '../../fixtures/shapes.ts';

const close = (a: number[], b: number[], eps: number) => a.every((v, i) => Math.abs(v - b[i]) < eps);

/** A plane through the origin tilted 30 degrees about y, so depth varies across it. */
function tiltedPlane(): MeshData {
  const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
  const p = (x: number, y: number): number[] => [x * c, y, -x * s];
  return {
    positions: Float32Array.from([...p(-5, -5), ...p(5, -5), ...p(5, 5), ...p(-5, 5)]),
    normals: Float32Array.from([s, 0, c, s, 0, c, s, 0, c, s, 0, c]),
    uvs: new Float32Array(8),
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  };
}

test('a point projected by a pinhole camera is lifted back onto the surface exactly', () => {
  const camera: Camera = { type: 'pinhole', K: [300, 0, 101.3, 0, 290, 97.8, 0, 0, 1], R: [1, 0, 0, 0, -1, 0, 0, 0, -1], t: [0.4, -0.2, 30] };
  const pick = pickSurface([{ geometry: tiltedPlane() }], camera, { width: 200, height: 200 });
  const frame = cameraFrame(camera, 200, 200);
  for (const [x, y] of [[1.3, 2.1], [-3.7, -1.2], [0.01, 4.4]]) {
    const c = Math.cos(Math.PI / 6), s = Math.sin(Math.PI / 6);
    const world: Vec3 = [x * c, y, -x * s];
    const image = projectPoint(frame, world);
    const hit = liftPoint(pick, image.x, image.y);
    assert.ok(hit, `hit at ${image.x}, ${image.y}`);
    assert.ok(close(hit.point, world, 1e-4), `${hit.point} vs ${world}`);
    assert.ok(Math.abs(hit.barycentric[0] + hit.barycentric[1] + hit.barycentric[2] - 1) < 1e-9);
    // Depth at that pixel agrees with the point's depth to within the pixel's depth change.
    const d = pick.depth[Math.floor(image.y) * 200 + Math.floor(image.x)];
    assert.ok(Math.abs(d - image.depth) < 0.1, `${d} vs ${image.depth}`);
  }
  assert.equal(liftPoint(pick, 1, 1), undefined, 'nothing seen in the corner');
  assert.equal(liftPoint(pick, -5, 50), undefined, 'outside the image');
});

test('the nearest item is picked, with triangle indices counted within each item', () => {
  const camera: Camera = { type: 'perspective', fovY: 60, eye: [0, 0, 20], target: [0, 0, 0], up: [0, 1, 0] };
  const far = { geometry: quad(10, -1) };
  const near = { geometry: quad(4, 1, [2, 2]) };
  const pick = pickSurface([far, near], camera, { width: 100, height: 100 });
  const frame = cameraFrame(camera, 100, 100);
  const onNear = projectPoint(frame, [2.5, 2.5, 1]);
  const hitNear = liftPoint(pick, onNear.x, onNear.y)!;
  assert.equal(hitNear.item, 1);
  assert.ok(hitNear.triangle === 0 || hitNear.triangle === 1);
  assert.ok(close(hitNear.point, [2.5, 2.5, 1], 1e-4));
  const onFar = projectPoint(frame, [-3, -3, -1]);
  const hitFar = liftPoint(pick, onFar.x, onFar.y)!;
  assert.equal(hitFar.item, 0);
  assert.ok(close(hitFar.point, [-3, -3, -1], 1e-4));
  assert.ok(pick.ids.includes(2) || pick.ids.includes(3), 'item 1 triangles get ids after item 0');
});

test('points hidden behind nearer surfaces or on the far side are not visible', () => {
  const camera: Camera = { type: 'perspective', fovY: 40, eye: [0, 0, 40], target: [0, 0, 0], up: [0, 1, 0] };
  const sphere = uvSphere(5, 64, 48);
  const shield = quad(3, 8, [3, 0]);
  const pick = pickSurface([{ geometry: sphere }, { geometry: shield }], camera, { width: 256, height: 256 });
  const points = Float32Array.from([
    0, 0, 5, // front of the sphere
    0, 0, -5, // back of the sphere
    3, 0, 4, // front, but behind the shield
    -3, 0, 4, // front, free
    // On the silhouette (away from the shield): where the view ray from (0, 0, 40) touches the sphere.
    -5 * Math.sqrt(1 - (5 / 40) ** 2), 0, 25 / 40,
    0, 0, 20, // in front of everything
  ]);
  assert.deepEqual(Array.from(visiblePoints(pick, points, 0.05)), [1, 0, 0, 1, 1, 1]);
});
