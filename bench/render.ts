import type { Figure } from './figure.ts';
import { measure } from './timing.ts';
import type { Camera } from '../src/geometry/render/camera.ts';
import { renderMeshes, type RenderMode } from '../src/geometry/render/rasterize.ts';
import { uvSphere } from '../test/fixtures/shapes.ts';
import { computeTangents } from '../src/geometry/mesh/tangents.ts';

const RUNS = 9;

const timed = (fn: () => void) => measure(fn, RUNS, 2);

/**
 * A 1024x1024 preview-like render with 2x supersampling: a sphere of 25,344 triangles filling about
 * half the frame (like a head in the preview), a 2048x2048 texture. Baseline: allocating and clearing
 * the same supersampled colour and depth buffers, the floor of any render of that size. Beside it the
 * same sphere with a head's material: 2048x2048 normal map and occlusion-roughness map, highlights.
 */
export default async function (): Promise<Figure[]> {
  const sphere = uvSphere(10, 128, 100);
  const size = 2048;
  const rgba = new Uint8Array(size * size * 4);
  // Opaque noise: every texel differs, as in a photo texture.
  for (let i = 0; i < rgba.length; i++) rgba[i] = (i & 3) === 3 ? 255 : (i * 2654435761) >>> 24;
  const camera: Camera = { type: 'perspective', fovY: 30, eye: [0, 8, 45], target: [0, 0, 0], up: [0, 1, 0] };
  const render = (mode: RenderMode) => () => {
    renderMeshes([{ geometry: sphere, texture: { width: size, height: size, rgba } }], camera, {
      width: 1024,
      height: 1024,
      supersample: 2,
      mode,
    });
  };
  const clear = await timed(() => {
    new Uint32Array(2048 * 2048).fill(0x00ffffff);
    new Float32Array(2048 * 2048).fill(Infinity);
  });
  const textured = await timed(render('textured'));
  const grey = await timed(render('grey'));
  // Noise in the maps too: every texel differs, as in maps baked from a scan or a photo.
  const map = (base: [number, number, number], spread: number) => {
    const m = new Uint8Array(size * size * 4);
    for (let i = 0; i < m.length; i++) m[i] = (i & 3) === 3 ? 255 : base[i & 3] + (((i * 2246822519) >>> 24) % spread);
    return { width: size, height: size, rgba: m };
  };
  const normalMap = map([118, 118, 240], 20);
  const orm = map([200, 100, 0], 50);
  const tangents = computeTangents(sphere.positions, sphere.normals, sphere.uvs, sphere.indices);
  const material = await timed(() => {
    renderMeshes([{ geometry: sphere, texture: { width: size, height: size, rgba }, normalMap, tangents, occlusion: orm, roughnessMap: orm, roughness: 1 }], camera, {
      width: 1024,
      height: 1024,
      supersample: 2,
    });
  });
  return [
    { key: 'render.clear_2048_buffers', value: clear.wall, unit: 'ms' },
    { key: 'render.clear_2048_buffers_cpu', value: clear.cpu, unit: 'ms cpu' },
    {
      key: 'render.textured_25k_tris_1024_ss2',
      value: textured.wall,
      unit: 'ms',
      baseline: 'render.clear_2048_buffers',
      goal: '< 150 ms',
    },
    { key: 'render.textured_25k_tris_1024_ss2_cpu', value: textured.cpu, unit: 'ms cpu', baseline: 'render.clear_2048_buffers_cpu' },
    { key: 'render.grey_25k_tris_1024_ss2', value: grey.wall, unit: 'ms', baseline: 'render.clear_2048_buffers' },
    { key: 'render.material_maps_25k_tris_1024_ss2', value: material.wall, unit: 'ms', baseline: 'render.textured_25k_tris_1024_ss2' },
    { key: 'render.material_maps_25k_tris_1024_ss2_cpu', value: material.cpu, unit: 'ms cpu', baseline: 'render.textured_25k_tris_1024_ss2_cpu' },
  ];
}
