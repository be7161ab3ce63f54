import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TemplateVersion } from '../../../src/model/avatar.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { HAIR_BUDGET, hairLibrary } from '../../../src/geometry/hair/library.ts';
import { HAIRSTYLES } from '../../../src/geometry/hair/styles.ts';
import { strandPattern, tintHair } from '../../../src/geometry/hair/strand-texture.ts';
import { scaleVolume, VOLUME_REACH } from '../../../src/geometry/hair/fit-hair.ts';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';

test('the library covers the issue\'s list with at least 16 styles', () => {
  const names = HAIRSTYLES.map((s) => s.name);
  assert.ok(names.length >= 16);
  assert.equal(new Set(names).size, names.length);
  for (const n of ['shaved', 'buzz-cut', 'short-crop', 'short-fringe', 'side-part', 'quiff', 'short-curly', 'afro', 'bob', 'chin-fringe', 'shoulder-straight', 'long-straight', 'long-wavy', 'ponytail', 'bun', 'tucked-shoulder']) {
    assert.ok(names.includes(n), n);
  }
});

for (const version of ['1.6', '2.0'] as TemplateVersion[]) {
  test(`template ${version}: every style is a valid mesh within budget, UVs in range, outside the head`, () => {
    const tpl = loadTemplateView(version);
    const lib = hairLibrary(tpl.source, tpl.hairCoverage);
    assert.equal(hairLibrary(tpl.source, tpl.hairCoverage), lib, 'built once per template');
    const head = tpl.meshes[0].geometry;
    const bvh = TriangleBvh.build(head.positions, head.indices);
    const hit = emptyClosestPoint();
    for (const { style, mesh } of lib.styles) {
      const n = mesh.positions.length / 3;
      const tris = mesh.indices.length / 3;
      assert.ok(tris > 100, `${style.name}: ${tris} triangles`);
      assert.ok(tris <= HAIR_BUDGET[version].triangles, `${style.name}: ${tris} triangles over budget`);
      assert.equal(mesh.uvs.length, n * 2);
      assert.equal(mesh.normals.length, n * 3);
      for (const i of mesh.indices) assert.ok(i < n);
      for (const x of mesh.positions) assert.ok(Number.isFinite(x), `${style.name}: position not finite`);
      for (const u of mesh.uvs) assert.ok(u >= 0 && u <= 1, `${style.name}: uv ${u}`);
      let inside = 0;
      for (let v = 0; v < n; v++) if (bvh.closestPoint(mesh.positions[v * 3], mesh.positions[v * 3 + 1], mesh.positions[v * 3 + 2], hit) && hit.inside) inside++;
      assert.equal(inside, 0, `${style.name}: ${inside} vertices inside the head`);
    }
  });
}

test('template 2.0: no hair falls further below the hairline than its strands are long (no card ends thrown onto the shoulders)', () => {
  const tpl = loadTemplateView('2.0');
  const lib = hairLibrary(tpl.source, tpl.hairCoverage);
  const p = tpl.source.head.positions;
  let hairlineBottom = Infinity;
  for (let v = 0; v < tpl.hairCoverage.length; v++) if (tpl.hairCoverage[v] >= 0.35) hairlineBottom = Math.min(hairlineBottom, p[v * 3 + 1]);
  for (const { style, mesh } of lib.styles) {
    if (style.gather) continue; // a ponytail hangs from its gather point, not from the hairline
    let lowest = Infinity;
    for (let v = 1; v < mesh.positions.length; v += 3) lowest = Math.min(lowest, mesh.positions[v]);
    const longest = Math.max(style.top, style.sides, style.back) * 1.1 + 1;
    assert.ok(lowest >= hairlineBottom - longest, `${style.name}: a vertex ${(hairlineBottom - lowest).toFixed(1)} cm below the hairline, strands ${longest.toFixed(1)} cm`);
  }
});

test('the strand texture carries coverage: opaque under-layer, cards fading to uneven tips, within 2048²', () => {
  const p = strandPattern();
  assert.ok(p.size <= 2048);
  const img = tintHair({ base: [100, 60, 30], dark: [50, 30, 15], light: [150, 100, 60] });
  assert.equal(img.rgba.length, p.size * p.size * 4);
  const alphaAt = (u: number, v: number) => img.rgba[(Math.floor((1 - v) * p.size) * p.size + Math.floor(u * p.size)) * 4 + 3];
  assert.equal(alphaAt(0.85, 0.75), 255, 'shell region opaque');
  // Card column 0: dense near the root, sparse at the tip.
  let root = 0, tip = 0;
  for (let x = 2; x < p.size * 0.12; x++) {
    root += alphaAt(x / p.size, 0.95);
    tip += alphaAt(x / p.size, 0.03);
  }
  assert.ok(root > tip * 2, `root coverage ${root} vs tip ${tip}`);
  assert.ok(tip > 0 || root > 0);
});

test('a volume moves no hair point further than VOLUME_REACH: long strands grow fuller, not into spikes', () => {
  const tpl = loadTemplateView('1.6');
  const lib = hairLibrary(tpl.source, tpl.hairCoverage);
  const long = lib.styles.find((s) => s.style.name === 'long-straight')!.mesh;
  for (const volume of [2.5, 0.3]) {
    const scaled = scaleVolume(long, lib.map, volume);
    let most = 0;
    for (let i = 0; i < scaled.length; i += 3) {
      most = Math.max(most, Math.hypot(scaled[i] - long.positions[i], scaled[i + 1] - long.positions[i + 1], scaled[i + 2] - long.positions[i + 2]));
    }
    assert.ok(most <= VOLUME_REACH + 1e-3, `volume ${volume}: a point moved ${most.toFixed(2)} cm`);
    assert.ok(most > VOLUME_REACH / 2, `volume ${volume}: the hair hardly moved (${most.toFixed(2)} cm)`);
  }
});
