import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipSync } from 'fflate';
import type { MeshData, Vec3 } from '../../../src/model/avatar.ts';
import { readArchive } from '../../../src/formats/read/archive-read.ts';
import { detectHeadOrientation } from '../../../src/geometry/register/head-orientation.ts';
import { detectHeadUnit, objToMeshData, readObj } from '../../../src/formats/read/obj-read.ts';
import type { Camera } from '../../../src/geometry/render/camera.ts';
import type { RgbaImage } from '../../../src/geometry/render/image.ts';
import { renderMeshes } from '../../../src/geometry/render/rasterize.ts';
import { headScan } from '../../fixtures/head-scan.ts';

/** An OBJ of a mesh with positions turned by R (row-major), scaled and shifted: a scan as a studio might send it. */
function scanObj(mesh: MeshData, R: number[], scale: number, shift: Vec3): string {
  const lines: string[] = ['# scan', 'o head', 'g skin', 'usemtl skin'];
  const p = mesh.positions;
  for (let i = 0; i < p.length; i += 3) {
    const q = [0, 1, 2].map((r) => scale * (R[r * 3] * p[i] + R[r * 3 + 1] * p[i + 1] + R[r * 3 + 2] * p[i + 2]) + shift[r]);
    lines.push(`v ${q.map((x) => x.toFixed(6)).join(' ')}`);
  }
  for (let i = 0; i < mesh.uvs.length; i += 2) lines.push(`vt ${mesh.uvs[i]} ${mesh.uvs[i + 1]}`);
  for (let t = 0; t < mesh.indices.length; t += 3) {
    const c = [0, 1, 2].map((k) => mesh.indices[t + k] + 1);
    lines.push(`f ${c.map((i) => `${i}/${i}`).join(' ')}`);
  }
  return lines.join('\r\n');
}

function centred(positions: Float32Array): Float32Array {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], positions[i]);
    hi[i % 3] = Math.max(hi[i % 3], positions[i]);
  }
  return positions.map((v, i) => v - (lo[i % 3] + hi[i % 3]) / 2);
}

function frontView(mesh: MeshData): RgbaImage {
  const camera: Camera = { type: 'perspective', fovY: 30, eye: [0, 0, 100], target: [0, 0, 0], up: [0, 1, 0] };
  return renderMeshes([{ geometry: { ...mesh, positions: centred(mesh.positions) } }], camera, { width: 96, height: 96, mode: 'grey' });
}

test('a turned head scan in metres, zipped, reads back upright in centimetres and renders like the original', async () => {
  // A scan is open at the neck (the detector's up comes from that cut), like the template without its bust.
  const head = headScan();
  // 120 degrees about a skew axis: the face looks somewhere down and sideways.
  const c = Math.cos((2 * Math.PI) / 3), s = Math.sin((2 * Math.PI) / 3);
  const [x, y, z] = [1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)];
  const R = [
    c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s,
    y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s,
    z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c),
  ];
  const zip = zipSync({ 'Scan/Mesh.OBJ': new TextEncoder().encode(scanObj(head, R, 0.01, [1.5, 0.2, -3])) });

  const obj = readObj((await readArchive(zip)).get('mesh.obj')!);
  const unit = detectHeadUnit(obj.positions);
  assert.equal(unit.unit, 'm');
  const orientation = detectHeadOrientation(obj.positions, obj.indices);
  const M = orientation.rotation;
  const upright = obj.positions.map((_, i) => {
    const b = i - (i % 3), r = i % 3;
    return unit.toCentimetres * (M[r * 3] * obj.positions[b] + M[r * 3 + 1] * obj.positions[b + 1] + M[r * 3 + 2] * obj.positions[b + 2]);
  });
  const scan = objToMeshData({ ...obj, positions: upright });

  const expected = frontView(head);
  const got = frontView(scan);
  let both = 0, either = 0, diff = 0;
  for (let i = 0; i < expected.rgba.length; i += 4) {
    const a = expected.rgba[i + 3] > 0, b = got.rgba[i + 3] > 0;
    both += a && b ? 1 : 0;
    either += a || b ? 1 : 0;
    if (a && b) diff += Math.abs(expected.rgba[i] - got.rgba[i]);
  }
  assert.ok(both / either > 0.97, `silhouettes overlap ${(both / either).toFixed(3)}`);
  assert.ok(diff / both < 4, `mean shading difference ${(diff / both).toFixed(2)}`);
});
