import { test } from 'node:test';
import assert from 'node:assert/strict';
import { visibleFromPhoto } from '../../../src/geometry/texture/photo-camera.ts';
import { quatToMat3 } from '../../../src/geometry/fit/similarity.ts';

/** A square grid of `n` x `n` vertices in the plane z = `z`, `width` cm wide, centred, facing +z, with its normals. */
function grid(n: number, width: number, z: number, first: number) {
  const positions: number[] = [], normals: number[] = [], indices: number[] = [];
  for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
    positions.push((i / (n - 1) - 0.5) * width, (j / (n - 1) - 0.5) * width, z);
    normals.push(0, 0, 1);
    if (i < n - 1 && j < n - 1) {
      const v = first + j * n + i;
      indices.push(v, v + 1, v + n + 1, v, v + n + 1, v + n);
    }
  }
  return { positions, normals, indices };
}

/** A wide back plane with a small plane 2 cm in front of its centre. */
function scene() {
  const back = grid(21, 10, 0, 0);
  const front = grid(5, 3, 2, 21 * 21);
  return {
    positions: Float32Array.from([...back.positions, ...front.positions]),
    normals: Float32Array.from([...back.normals, ...front.normals]),
    indices: Uint32Array.from([...back.indices, ...front.indices]),
  };
}

test('the photo sees the vertices nearest to it and not those a nearer surface hides, whatever normals the mesh has', () => {
  const mesh = scene();
  const photo = { width: 400, height: 300 };
  for (const rotation of [quatToMat3(1, 0, 0, 0), quatToMat3(Math.cos(0.2), 0.05, Math.sin(0.2), 0)]) {
    const camera = { rotation, pixelsPerCm: 25, translation: [200, 150] as [number, number] };
    const visible = visibleFromPhoto(camera, photo, mesh);
    // The back plane's centre lies behind the front plane; its corners and the front plane are in view.
    assert.equal(visible[10 * 21 + 10], 0);
    for (const corner of [0, 20, 20 * 21, 21 * 21 - 1]) assert.equal(visible[corner], 1);
    for (let v = 21 * 21; v < visible.length; v++) assert.equal(visible[v], 1);
    // Normals play no part in what is seen: without them (the renderer's flat path) the answer is the same.
    assert.deepEqual(visible, visibleFromPhoto(camera, photo, { ...mesh, normals: new Float32Array(0) }));
  }
});
