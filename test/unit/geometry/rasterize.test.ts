import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeshData, Vec3 } from '../../../src/model/avatar.ts';
import { cameraFrame, projectPoint, type Camera } from '../../../src/geometry/render/camera.ts';
import type { RgbaImage } from '../../../src/geometry/render/image.ts';
import { renderMeshes, renderTriangleIds, type RenderItem } from '../../../src/geometry/render/rasterize.ts';
import { quad, uvSphere } from '../../fixtures/shapes.ts';

const front = (fovY: number, distance: number): Camera => ({
  type: 'perspective',
  fovY,
  eye: [0, 0, distance],
  target: [0, 0, 0],
  up: [0, 1, 0],
});

function pixel(img: RgbaImage, x: number, y: number): number[] {
  const o = (y * img.width + x) * 4;
  return Array.from(img.rgba.subarray(o, o + 4));
}

function covered(img: RgbaImage): { count: number; cx: number; cy: number } {
  let count = 0, sx = 0, sy = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const a = img.rgba[(y * img.width + x) * 4 + 3] / 255;
      count += a;
      sx += a * (x + 0.5);
      sy += a * (y + 0.5);
    }
  }
  return { count, cx: sx / count, cy: sy / count };
}

/** The same surface facing the other way: winding and normals turned. */
function reversed(mesh: MeshData): MeshData {
  const indices = mesh.indices.slice();
  for (let i = 0; i < indices.length; i += 3) [indices[i + 1], indices[i + 2]] = [indices[i + 2], indices[i + 1]];
  return { ...mesh, indices, normals: mesh.normals.map((n) => -n) };
}

test('a square covers exactly the pixels whose centres it contains', () => {
  // fov 90 at distance 10: f = 50 px, so a 10 cm square at the origin spans pixels 25..74.
  const img = renderMeshes([{ geometry: quad(10, 0) }], front(90, 10), { width: 100, height: 100 });
  assert.equal(covered(img).count, 2500);
  assert.equal(pixel(img, 25, 25)[3], 255);
  assert.equal(pixel(img, 74, 74)[3], 255);
  assert.equal(pixel(img, 24, 50)[3], 0);
  assert.equal(pixel(img, 50, 75)[3], 0);
});

test('a sphere covers the area of its projected disc', () => {
  const r = 5, d = 40;
  const img = renderMeshes([{ geometry: uvSphere(r, 96, 64) }], front(30, d), { width: 200, height: 200, supersample: 2 });
  const f = 100 / Math.tan(Math.PI / 12);
  // The silhouette of a sphere under perspective is a circle of angular radius asin(r/d).
  const rho = f * Math.tan(Math.asin(r / d));
  const { count, cx, cy } = covered(img);
  assert.ok(Math.abs(count / (Math.PI * rho * rho) - 1) < 0.01, `coverage ${count} vs ${Math.PI * rho * rho}`);
  assert.ok(Math.abs(cx - 100) < 0.05 && Math.abs(cy - 100) < 0.05);
});

test('the nearer surface occludes the farther one whatever the drawing order', () => {
  const near = { geometry: quad(4, 1), color: [1, 0, 0] as [number, number, number] };
  const far = { geometry: quad(8, -1), color: [0, 0, 1] as [number, number, number] };
  for (const items of [[near, far], [far, near]]) {
    const img = renderMeshes(items, front(60, 10), { width: 64, height: 64 });
    const [r, , b] = pixel(img, 32, 32);
    assert.ok(r > 0 && b === 0, `centre should be red: ${pixel(img, 32, 32)}`);
    const [r2, , b2] = pixel(img, 32, 16);
    assert.ok(b2 > 0 && r2 === 0, `outside the near square it should be blue: ${pixel(img, 32, 16)}`);
  }
});

test('a surface behind others shows at every pixel nothing nearer covers, wherever the nearer edges fall along a row', () => {
  // The rasterizer passes over stretches of a row that lie behind what is drawn (rasterize.ts, row segments):
  // near squares end at many positions inside and across those stretches, on an image whose width is no multiple of them.
  const red: [number, number, number] = [1, 0, 0];
  const camera = front(60, 10);
  const size = { width: 157, height: 61 };
  for (const alphaMode of ['OPAQUE', 'BLEND'] as const) {
    const far: RenderItem = { geometry: quad(14, -2, [0.3, 0]), color: [0, 0, 1], opacity: alphaMode === 'BLEND' ? 0.5 : 1, alphaMode };
    const farAlone = renderMeshes([far], camera, size);
    for (let shift = -2; shift <= 2; shift += 0.11) {
      const nears = [quad(3.1, 1, [shift, 1]), quad(1.7, 0.5, [shift + 3.3, -0.3]), quad(4.3, 2, [-shift, -1.6])].map((geometry): RenderItem => ({ geometry, color: red }));
      const nearAlone = renderMeshes(nears, camera, size);
      for (const items of [[...nears, far], [far, ...nears]]) {
        const img = renderMeshes(items, camera, size);
        const wrong: string[] = [];
        for (let y = 0; y < size.height; y++) {
          for (let x = 0; x < size.width; x++) {
            const expected = pixel(nearAlone, x, y)[3] === 255 ? pixel(nearAlone, x, y) : pixel(farAlone, x, y);
            if (pixel(img, x, y).some((c, k) => c !== expected[k])) wrong.push(`${x},${y}: ${pixel(img, x, y)} not ${expected}`);
          }
        }
        assert.deepEqual(wrong.slice(0, 3), [], `${alphaMode}, shift ${shift.toFixed(2)}`);
      }
    }
  }
});

test('rows a nearer surface covers from end to end are passed over without changing a pixel', () => {
  // rasterize.ts skips a triangle's row when its nearest corner lies behind everything drawn across that row. A wall over
  // the whole image against the same wall with its last column open (no row is ever fully covered, nothing is skipped),
  // with a card that passes through the wall: behind it on the left, in front of it on the right.
  const camera = front(60, 10);
  const size = { width: 128, height: 64 };
  const halfWidth = 10 * Math.tan(Math.PI / 6) * 2;
  const wall = (right: number): RenderItem => ({
    geometry: { ...quad(1, 0), positions: Float32Array.from([-20, -20, 0, right, -20, 0, right, 20, 0, -20, 20, 0]) },
    color: [1, 0, 0],
  });
  const card = (alphaMode: 'OPAQUE' | 'BLEND'): RenderItem => ({
    geometry: { ...quad(1, 0), positions: Float32Array.from([-9, -2, -3, 9, -2, 3, 9, 2, 3, -9, 2, -3]) },
    color: [0, 0, 1],
    opacity: alphaMode === 'BLEND' ? 0.5 : 1,
    alphaMode,
    doubleSided: true,
  });
  const behind: RenderItem = { geometry: quad(6, -1, [-3, 0]), color: [0, 1, 0] };
  const open = wall(halfWidth - 0.3), closed = wall(20);
  for (const alphaMode of ['OPAQUE', 'BLEND'] as const) {
    for (const order of [0, 1]) {
      const scene = (w: RenderItem) => (order ? [card(alphaMode), behind, w] : [w, behind, card(alphaMode)]);
      const ref = renderMeshes(scene(open), camera, size), img = renderMeshes(scene(closed), camera, size);
      const wrong: string[] = [];
      for (let y = 0; y < size.height; y++) {
        for (let x = 0; x < size.width - 4; x++) {
          if (pixel(img, x, y).some((c, k) => c !== pixel(ref, x, y)[k])) wrong.push(`${x},${y}: ${pixel(img, x, y)} not ${pixel(ref, x, y)}`);
        }
      }
      assert.deepEqual(wrong.slice(0, 3), [], `${alphaMode}, order ${order}`);
      // The card shows where it is in front of the wall, the green square nowhere.
      assert.ok(pixel(img, 120, 32)[2] > 0 && pixel(img, 8, 32)[2] === 0, `${alphaMode}: ${pixel(img, 120, 32)} ${pixel(img, 8, 32)}`);
      assert.ok(pixel(img, 40, 32)[1] === 0);
    }
  }
});

test('textures are applied with v up: the top row of the image lands at the top of the mesh', () => {
  // Quadrants of a 2x2 texture: top-left red, top-right green, bottom-left blue, bottom-right white.
  const texture = {
    width: 2,
    height: 2,
    rgba: Uint8Array.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]),
  };
  const img = renderMeshes([{ geometry: quad(10, 0), texture }], front(90, 10), { width: 100, height: 100 });
  const dominant = (x: number, y: number) => {
    const [r, g, b] = pixel(img, x, y);
    return r > 2 * g && r > 2 * b ? 'red' : g > 2 * r && g > 2 * b ? 'green' : b > 2 * r && b > 2 * g ? 'blue' : 'white';
  };
  assert.equal(dominant(30, 30), 'red');
  assert.equal(dominant(70, 30), 'green');
  assert.equal(dominant(30, 70), 'blue');
  assert.equal(dominant(70, 70), 'white');
});

test('supersampled, an opaque surface is shaded once per pixel, at its centre: inside a triangle it matches the render without supersampling', () => {
  // A texture of noise, which averaging four shadings per pixel would blur; fov 90 at distance 10 puts the square on
  // pixels 25..74, its diagonal (where the two triangles meet) along x + y = 99.
  let seed = 7;
  const noise = new Uint8Array(64 * 64 * 4).map((_, i) => (i % 4 === 3 ? 255 : (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
  const item: RenderItem = { geometry: quad(10, 0), texture: { width: 64, height: 64, rgba: noise } };
  const single = renderMeshes([item], front(90, 10), { width: 100, height: 100 });
  const multi = renderMeshes([item], front(90, 10), { width: 100, height: 100, supersample: 2 });
  let worst = 0, compared = 0;
  for (let y = 27; y <= 72; y++) {
    for (let x = 27; x <= 72; x++) {
      if (Math.abs(x + y + 1 - 100) <= 3) continue;
      const a = pixel(single, x, y), b = pixel(multi, x, y);
      for (let c = 0; c < 4; c++) worst = Math.max(worst, Math.abs(a[c] - b[c]));
      compared++;
    }
  }
  assert.ok(compared > 1800);
  // Rounding apart (the two renders take the same point's attributes from differently scaled edge functions).
  assert.ok(worst <= 1, `largest difference ${worst}`);
});

test('background is transparent and anti-aliased edges keep the surface colour', () => {
  const img = renderMeshes([{ geometry: uvSphere(5, 64, 48), color: [0, 1, 0] }], front(30, 40), {
    width: 100,
    height: 100,
    supersample: 2,
  });
  assert.deepEqual(pixel(img, 0, 0), [0, 0, 0, 0]);
  let partial = 0;
  for (let i = 3; i < img.rgba.length; i += 4) {
    const a = img.rgba[i];
    if (a > 0 && a < 255) {
      partial++;
      const [r, g, b] = img.rgba.subarray(i - 3, i);
      assert.ok(g > 0 && r === 0 && b === 0, 'a partly covered pixel is green, not mixed with the background');
    }
  }
  assert.ok(partial > 50, `expected soft edges, got ${partial} partial pixels`);
  const solid = renderMeshes([{ geometry: quad(1, 0) }], front(30, 40), { width: 8, height: 8, background: [10, 20, 30, 255] });
  assert.deepEqual(pixel(solid, 0, 0), [10, 20, 30, 255]);
});

test('back faces are culled unless the item is double-sided', () => {
  const back = reversed(quad(10, 0));
  const culled = renderMeshes([{ geometry: back }], front(90, 10), { width: 50, height: 50 });
  assert.equal(covered(culled).count, 0);
  const shown = renderMeshes([{ geometry: back, doubleSided: true }], front(90, 10), { width: 50, height: 50 });
  assert.equal(covered(shown).count, 625);
  // Lit as seen from the front: as bright as the front face of the same square.
  const lit = renderMeshes([{ geometry: quad(10, 0) }], front(90, 10), { width: 50, height: 50 });
  assert.deepEqual(pixel(shown, 25, 25), pixel(lit, 25, 25));
});

test('perspective projection matches a hand-computed point', () => {
  // fov 90 over 100 px: f = 50; (2, 3, 0) seen from (0, 0, 10) is at x = 50 + 50 * 2/10, y = 50 - 50 * 3/10.
  const p = projectPoint(cameraFrame(front(90, 10), 100, 100), [2, 3, 0]);
  assert.ok(Math.abs(p.x - 60) < 1e-9 && Math.abs(p.y - 35) < 1e-9 && Math.abs(p.depth - 10) < 1e-9);
});

test('a pinhole camera (K, R, t) renders a point where K (R X + t) puts it', () => {
  // R turns world y-up / -z-forward into camera y-down / z-forward; the camera stands at z = 10.
  const camera: Camera = { type: 'pinhole', K: [200, 0, 64, 0, 180, 48, 0, 0, 1], R: [1, 0, 0, 0, -1, 0, 0, 0, -1], t: [0, 0, 10] };
  const point: Vec3 = [1, 0.5, 0];
  // x = 200 * 1/10 + 64 = 84, y = 180 * -0.5/10 + 48 = 39.
  const p = projectPoint(cameraFrame(camera, 128, 96), point);
  assert.ok(Math.abs(p.x - 84) < 1e-9 && Math.abs(p.y - 39) < 1e-9);
  const img = renderMeshes([{ geometry: quad(0.4, 0, [point[0], point[1]]) }], camera, { width: 128, height: 96, supersample: 2 });
  const c = covered(img);
  assert.ok(Math.abs(c.cx - 84) < 0.05 && Math.abs(c.cy - 39) < 0.05, `centroid ${c.cx}, ${c.cy} ${c.count}`);
  // 0.4 cm at 10 cm: 8 x 7.2 px, up to half a sample (a quarter pixel) off along each edge.
  assert.ok(Math.abs(c.count - 8 * 7.2) < 2, `area ${c.count}`);
});

test('an orthographic camera keeps sizes independent of depth', () => {
  const camera: Camera = { type: 'orthographic', viewHeight: 20, eye: [0, 0, 50], target: [0, 0, 0], up: [0, 1, 0] };
  for (const z of [-10, 0, 10]) {
    const img = renderMeshes([{ geometry: quad(10, z) }], camera, { width: 100, height: 100 });
    assert.equal(covered(img).count, 2500);
  }
  const nearFirst: RenderItem[] = [{ geometry: quad(4, 3), color: [1, 0, 0] }, { geometry: quad(8, -3), color: [0, 0, 1] }];
  const order = renderMeshes(nearFirst, camera, { width: 100, height: 100 });
  assert.ok(pixel(order, 50, 50)[0] > 0 && pixel(order, 50, 50)[2] === 0);
});

test('triangles crossing the near plane are clipped, not dropped or smeared', () => {
  // A floor reaching from behind the camera to far in front of it.
  const floor: MeshData = {
    positions: Float32Array.from([-50, -2, 20, 50, -2, 20, 50, -2, -80, -50, -2, -80]),
    normals: Float32Array.from([0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]),
    uvs: new Float32Array(8),
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  };
  const img = renderMeshes([{ geometry: floor }], front(90, 10), { width: 64, height: 64 });
  // Below the horizon (the image centre row) is floor, above it nothing.
  assert.equal(pixel(img, 32, 63)[3], 255);
  assert.equal(pixel(img, 0, 63)[3], 255);
  assert.equal(pixel(img, 32, 20)[3], 0);
});

test('lighting reads the shape: the key light side is brighter, the grey mode ignores textures', () => {
  const texture = { width: 1, height: 1, rgba: Uint8Array.from([255, 0, 0, 255]) };
  const img = renderMeshes([{ geometry: uvSphere(5, 64, 48), texture }], front(30, 40), { width: 100, height: 100, mode: 'grey' });
  const [r, g, b] = pixel(img, 50, 50);
  assert.ok(r === g && g === b, 'grey');
  const upperLeft = pixel(img, 38, 38)[0];
  const lowerRight = pixel(img, 62, 62)[0];
  assert.ok(upperLeft > lowerRight + 20, `${upperLeft} vs ${lowerRight}`);
  // A colour tints the grey: white gives the plain grey, red a darker red.
  const white = renderMeshes([{ geometry: uvSphere(5, 64, 48), color: [1, 1, 1] }], front(30, 40), { width: 100, height: 100, mode: 'grey' });
  assert.deepEqual(pixel(white, 50, 50), pixel(img, 50, 50));
  const red = renderMeshes([{ geometry: uvSphere(5, 64, 48), color: [1, 0, 0] }], front(30, 40), { width: 100, height: 100, mode: 'grey' });
  assert.deepEqual(pixel(red, 50, 50), [pixel(img, 50, 50)[0], 0, 0, 255]);
});

test('uv-checker mode shows the layout: the u tint grows to the right on a front-facing square', () => {
  const img = renderMeshes([{ geometry: quad(10, 0) }], front(90, 10), { width: 96, height: 96, mode: 'uv-checker' });
  // Same checker cell colour (both in even cells) at u = 1/16 and u = 15/16... compare within one row of cells.
  const left = pixel(img, 27, 27), right = pixel(img, 68, 27);
  assert.ok(right[0] > left[0], `${left} ${right}`);
  assert.notDeepEqual(pixel(img, 27, 27), pixel(img, 33, 27), 'neighbouring cells differ');
});

/** An image of one row, each texel given as [r, g, b, a]. */
const row = (...texels: number[][]): RgbaImage => ({ width: texels.length, height: 1, rgba: Uint8Array.from(texels.flat()) });

test('MASK cuts the surface out where the coverage is below the cutoff; OPAQUE ignores the alpha', () => {
  // Alpha rises across the square in steps of 32: 0, 32, ..., 224 (eight texels of 12.5 px).
  const texture = row(...Array.from({ length: 8 }, (_, k) => [255, 255, 255, 32 * k]));
  const drawnColumns = (item: Partial<RenderItem>) => {
    const img = renderMeshes([{ geometry: quad(10, 0), texture, ...item }], front(90, 10), { width: 100, height: 100 });
    let n = 0;
    for (let x = 25; x < 75; x++) if (pixel(img, x, 50)[3] === 255) n++;
    return n;
  };
  // Texel centres are where the texture holds its value: with bilinear filtering, a cutoff of 100/255
  // falls between the texels of 96 and 128, an eighth of a texel short of the latter's centre.
  assert.equal(drawnColumns({ alphaMode: 'MASK', alphaCutoff: 100 / 255 }), Math.round(50 - 50 * (3.5 + 4 / 32) / 8));
  assert.equal(drawnColumns({ alphaMode: 'MASK', alphaCutoff: 0.8 }), 50 - Math.ceil(50 * (6.5 + 12 / 32) / 8));
  // glTF's default cutoff is 0.5; the opacity multiplies the coverage.
  assert.equal(drawnColumns({ alphaMode: 'MASK' }), drawnColumns({ alphaMode: 'MASK', alphaCutoff: 0.5 }));
  assert.equal(drawnColumns({ alphaMode: 'MASK', opacity: 0.5, alphaCutoff: 0.25 }), drawnColumns({ alphaMode: 'MASK', alphaCutoff: 0.5 }));
  assert.equal(drawnColumns({ alphaMode: 'OPAQUE' }), 50);
  assert.equal(drawnColumns({}), 50, 'opaque by default');
});

test('BLEND cards composite back to front whatever their order and from both sides', () => {
  const red = { geometry: quad(4, 1), color: [1, 0, 0] as [number, number, number], opacity: 0.5, doubleSided: true };
  const blue = { geometry: quad(4, -1), color: [0, 0, 1] as [number, number, number], opacity: 0.5, doubleSided: true };
  const light = { ambient: 1, lights: [], rim: 0 };
  const behind: Camera = { type: 'perspective', fovY: 60, eye: [0, 0, -10], target: [0, 0, 0], up: [0, 1, 0] };
  for (const items of [[red, blue], [blue, red]]) {
    // Seen from +z red is in front: red over (blue over nothing), coverage 0.75. The colour of the
    // straight-alpha result is the coverage-weighted mix: red 0.5 and blue 0.25 of the 0.75.
    const fromFront = pixel(renderMeshes(items, front(60, 10), { width: 64, height: 64, light }), 32, 32);
    const expected = [255 * (0.5 / 0.75), 0, 255 * (0.25 / 0.75), 255 * 0.75];
    fromFront.forEach((c, k) => assert.ok(Math.abs(c - expected[k]) <= 2, `front ${fromFront}, expected ${expected}`));
    // From behind the blue card is the nearer one.
    const fromBehind = pixel(renderMeshes(items, behind, { width: 64, height: 64, light }), 32, 32);
    assert.ok(fromBehind[2] > fromBehind[0], `behind ${fromBehind}`);
    assert.equal(fromBehind[3], fromFront[3]);
  }
});

test("a BLEND texture's fully covered texels hide what is behind them; its partial ones blend over the opaque surface", () => {
  // Left half fully covered green, right half half covered green.
  const card = { geometry: quad(8, 1), texture: row([0, 255, 0, 255], [0, 255, 0, 128]), alphaMode: 'BLEND' as const };
  const wall = { geometry: quad(20, -1), color: [1, 0, 0] as [number, number, number] };
  const light = { ambient: 1, lights: [], rim: 0 };
  for (const items of [[card, wall], [wall, card]]) {
    const img = renderMeshes(items, front(60, 10), { width: 64, height: 64, light });
    const [r1, g1] = pixel(img, 12, 32), [r2, g2] = pixel(img, 52, 32);
    assert.ok(g1 === 255 && r1 === 0, `full coverage: ${pixel(img, 12, 32)}`);
    assert.ok(g2 > 100 && r2 > 100, `half coverage: ${pixel(img, 52, 32)}`);
  }
  // A BLEND card behind an opaque one does not show through it.
  const front_ = { geometry: quad(8, 2), color: [0, 0, 1] as [number, number, number] };
  const hidden = renderMeshes([front_, card], front(60, 10), { width: 64, height: 64, light });
  assert.deepEqual(pixel(hidden, 52, 32), [0, 0, 255, 255]);
});

test('a translucent item blends over what is behind it', () => {
  const img = renderMeshes(
    [{ geometry: quad(4, 1), color: [1, 0, 0], opacity: 0.5 }, { geometry: quad(8, -1), color: [0, 0, 1] }],
    front(60, 10),
    { width: 64, height: 64 },
  );
  const [r, , b, a] = pixel(img, 32, 32);
  assert.ok(r > 0 && b > 0 && a === 255, `${pixel(img, 32, 32)}`);
  const alone = renderMeshes([{ geometry: quad(4, 1), color: [1, 0, 0], opacity: 0.5 }], front(60, 10), { width: 64, height: 64 });
  assert.equal(pixel(alone, 32, 32)[3], 128);
  assert.ok(pixel(alone, 32, 32)[0] > 0);
});

test('a translucent square larger than the tiles the image is drawn in blends every pixel it covers once, none twice or missed at their borders', () => {
  // fov 90 at distance 10 on 600 px: f = 300 px, so a 16 cm square spans pixels 60..539, across several tiles.
  const img = renderMeshes([{ geometry: quad(16, 0), color: [1, 0, 0], opacity: 0.5 }], front(90, 10), { width: 600, height: 600 });
  const alphas = new Map<number, number>();
  for (let y = 0; y < 600; y++) {
    for (let x = 0; x < 600; x++) {
      const a = pixel(img, x, y)[3];
      assert.equal(a, x >= 60 && x < 540 && y >= 60 && y < 540 ? 128 : 0, `alpha ${a} at ${x},${y}`);
      alphas.set(a, (alphas.get(a) ?? 0) + 1);
    }
  }
  assert.equal(alphas.get(128), 480 * 480);
});

/** One light from `direction` (camera space: -z towards the viewer, -y up), nothing else. */
const oneLight = (direction: [number, number, number], ambient = 0) => ({ ambient, lights: [{ direction, intensity: 1 }], rim: 0 });
/** The sRGB byte the renderer writes for a linear value. */
const srgb = (c: number): number => Math.round(255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055));
/** A 1x1 normal map holding the unit vector n (tangent space: x along +u, y along +v, z out). */
const normalTexel = (n: [number, number, number]): RgbaImage => row([...n.map((c) => Math.round((c + 1) * 127.5)), 255]);

test('a normal map turns the shading: red towards +u, green towards +v (up), on mirrored UVs too', () => {
  const s = Math.SQRT1_2;
  const lit = (light: ReturnType<typeof oneLight>, map?: [number, number, number], geometry = quad(10, 0)) =>
    pixel(renderMeshes([{ geometry, normalMap: map && normalTexel(map) }], front(90, 10), { width: 50, height: 50, light }), 25, 25)[0];
  // From above and in front: a flat map changes nothing, tilting the normal up meets the light, down turns away.
  const above = oneLight([0, -0.6, -0.8]);
  // (A byte holds 0 as 128, a 0.4 % tilt.)
  assert.ok(Math.abs(lit(above, [0, 0, 1]) - lit(above)) <= 1);
  assert.ok(Math.abs(lit(above) - srgb(0.8)) <= 2, `${lit(above)}`);
  assert.ok(Math.abs(lit(above, [0, s, s]) - srgb(0.6 * s + 0.8 * s)) <= 2, `up ${lit(above, [0, s, s])}`);
  assert.ok(Math.abs(lit(above, [0, -s, s]) - srgb(0.8 * s - 0.6 * s)) <= 2, `down ${lit(above, [0, -s, s])}`);
  // From the left: tilting towards +u (right on this square) turns away from it.
  const left = oneLight([-0.6, 0, -0.8]);
  assert.ok(Math.abs(lit(left, [s, 0, s]) - srgb(0.8 * s - 0.6 * s)) <= 2, `right ${lit(left, [s, 0, s])}`);
  assert.ok(Math.abs(lit(left, [-s, 0, s]) - srgb(0.8 * s + 0.6 * s)) <= 2, `left ${lit(left, [-s, 0, s])}`);
  // u mirrored (running right to left): +u now points left, towards the light.
  const mirrored = { ...quad(10, 0), uvs: Float32Array.from([1, 0, 0, 0, 0, 1, 1, 1]) };
  assert.ok(Math.abs(lit(left, [s, 0, s], mirrored) - srgb(0.8 * s + 0.6 * s)) <= 2, `mirrored ${lit(left, [s, 0, s], mirrored)}`);
  // Normal maps are a material's: the grey mode shows the mesh alone.
  const grey = renderMeshes([{ geometry: quad(10, 0), normalMap: normalTexel([0, s, s]) }], front(90, 10), { width: 50, height: 50, light: above, mode: 'grey' });
  const plain = renderMeshes([{ geometry: quad(10, 0) }], front(90, 10), { width: 50, height: 50, light: above, mode: 'grey' });
  assert.deepEqual(pixel(grey, 25, 25), pixel(plain, 25, 25));
});

test('roughness gives a highlight: the smoother, the brighter and smaller; the roughness map scales it by its green channel', () => {
  const light = oneLight([-0.3, -0.3, -0.9]);
  const sphere = uvSphere(5, 96, 64);
  const render = (item: Partial<RenderItem>) =>
    renderMeshes([{ geometry: sphere, color: [0.2, 0.2, 0.2], ...item }], front(30, 40), { width: 100, height: 100, light });
  /** The brightest pixel's value and how many pixels come within 20 of it. */
  const peak = (img: RgbaImage) => {
    let max = 0;
    for (let i = 0; i < img.rgba.length; i += 4) max = Math.max(max, img.rgba[i]);
    let near = 0;
    for (let i = 0; i < img.rgba.length; i += 4) if (img.rgba[i] >= max - 20) near++;
    return { max, near };
  };
  const none = peak(render({})), rough = peak(render({ roughness: 0.7 })), smooth = peak(render({ roughness: 0.25 }));
  assert.ok(none.max < rough.max && rough.max < smooth.max, `${none.max} ${rough.max} ${smooth.max}`);
  assert.ok(smooth.near < rough.near, `${smooth.near} ${rough.near}`);
  // Where the highlight sits: the normal halfway between the light and the viewer, up and to the left.
  const img = render({ roughness: 0.25 });
  let best = 0;
  for (let i = 0; i < img.rgba.length; i += 4) if (img.rgba[i] > img.rgba[best * 4]) best = i / 4;
  assert.ok(best % 100 < 50 && best / 100 < 50, `highlight at ${best % 100}, ${Math.floor(best / 100)}`);
  // A map of green 64 (0.25) under roughness 1 is the 0.25 surface; green 255 the matt one.
  assert.deepEqual(peak(render({ roughness: 1, roughnessMap: row([0, 64, 0, 255]) })), smooth);
  assert.deepEqual(peak(render({ roughness: 1, roughnessMap: row([0, 255, 0, 255]) })), peak(render({ roughness: 1 })));
});

test('the occlusion map (red, linear) scales the ambient light only', () => {
  const render = (occlusion?: RgbaImage, light = oneLight([0, 0, -1], 0.5)) =>
    pixel(renderMeshes([{ geometry: quad(10, 0), color: [0.5, 0.5, 0.5], occlusion }], front(90, 10), { width: 50, height: 50, light }), 25, 25)[0];
  // Half the ambient (0.5) occluded: 0.5 * (1 + 0.25) against 0.5 * (1 + 0.5) unoccluded.
  assert.ok(Math.abs(render(row([128, 0, 0, 255])) - srgb(0.5 * (1 + 0.5 * 128 / 255))) <= 2, `${render(row([128, 0, 0, 255]))}`);
  assert.equal(render(row([255, 0, 0, 255])), render());
  // Without ambient light, occlusion changes nothing.
  assert.equal(render(row([0, 0, 0, 255]), oneLight([0, 0, -1])), render(undefined, oneLight([0, 0, -1])));
});

test('flat shading draws each triangle with its face normal: the same pixels as the mesh split into triangles that carry it', () => {
  const sphere = uvSphere(0.8, 10, 14);
  const { positions, uvs, indices } = sphere;
  const split = { positions: new Float32Array(indices.length * 3), normals: new Float32Array(indices.length * 3), uvs: new Float32Array(indices.length * 2), indices: new Uint32Array(indices.length) };
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t], indices[t + 1], indices[t + 2]].map((i) => [positions[i * 3], positions[i * 3 + 1], positions[i * 3 + 2]]);
    const e = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], f = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
    const len = Math.hypot(n[0], n[1], n[2]);
    for (let k = 0; k < 3; k++) {
      const i = indices[t + k];
      split.positions.set(positions.subarray(i * 3, i * 3 + 3), (t + k) * 3);
      split.normals.set(n.map((v) => v / len), (t + k) * 3);
      split.uvs.set(uvs.subarray(i * 2, i * 2 + 2), (t + k) * 2);
      split.indices[t + k] = t + k;
    }
  }
  const opts = { width: 48, height: 48, light: { ambient: 0.2, rim: 0, lights: [{ direction: [-0.5, -0.4, -0.77] as Vec3, intensity: 0.8 }] } };
  const flat = renderMeshes([{ geometry: { ...sphere, normals: new Float32Array(0) } }], front(30, 4), opts);
  const facets = renderMeshes([{ geometry: split }], front(30, 4), opts);
  assert.ok(covered(flat).count > 300);
  assert.deepEqual(flat.rgba, facets.rgba);
});

test('tiles no triangle reaches hold the background as the drawn tiles do, and no surface in the triangle ids', () => {
  // A small square in the middle (pixels 153..166): of 320 x 320 pixels in tiles of 64 (128 samples), all tiles but the
  // one from 128 to 191 are empty.
  const square = quad(1, 0);
  for (const background of [[10, 20, 30, 0], [10, 20, 30, 128], [10, 20, 30, 255]] as [number, number, number, number][]) {
    const img = renderMeshes([{ geometry: square }], front(30, 40), { width: 320, height: 320, supersample: 2, background });
    // Beside the square in its own tile, and in empty tiles.
    const near = pixel(img, 130, 130);
    assert.equal(pixel(img, 160, 160)[3], 255);
    assert.deepEqual(pixel(img, 300, 300), near);
    assert.deepEqual(pixel(img, 10, 150), near);
    const far = pixel(img, 300, 10);
    assert.deepEqual(far, background[3] === 0 ? [10, 20, 30, 0] : background);
    assert.ok(covered(img).count > 0);
  }
  const { ids, depth } = renderTriangleIds([{ geometry: square }], front(30, 40), { width: 320, height: 320 });
  assert.equal(ids[319 * 320 + 319], -1);
  assert.equal(depth[319 * 320 + 319], Infinity);
  assert.equal(depth[130 * 320 + 130], Infinity);
  assert.ok(ids[160 * 320 + 160] >= 0 && depth[160 * 320 + 160] === 40);
});
