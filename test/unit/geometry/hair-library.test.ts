import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TemplateVersion } from '../../../src/model/avatar.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import { HAIR_BUDGET, hairLibrary } from '../../../src/geometry/hair/library.ts';
import { onScalp, surfaceRadius } from '../../../src/geometry/hair/scalp-map.ts';
import { HAIRSTYLES } from '../../../src/geometry/hair/styles.ts';
import { strandPattern, tintHair } from '../../../src/geometry/hair/strand-texture.ts';
import { scaleVolume, VOLUME_REACH } from '../../../src/geometry/hair/fit-hair.ts';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';
import { ATLAS } from '../../../src/geometry/hair/atlas.ts';
import { renderMeshes, type RenderItem } from '../../../src/geometry/render/rasterize.ts';
import type { Camera } from '../../../src/geometry/render/camera.ts';
import type { Vec3 } from '../../../src/model/avatar.ts';

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
      // Faces turn the way their normals do: viewers light a double-sided back face with the normal reversed.
      let against = 0;
      for (let t = 0; t < mesh.indices.length; t += 3) {
        const [a, b, c] = [0, 1, 2].map((k) => mesh.indices[t + k] * 3);
        const e1 = [0, 1, 2].map((k) => mesh.positions[b + k] - mesh.positions[a + k]);
        const e2 = [0, 1, 2].map((k) => mesh.positions[c + k] - mesh.positions[a + k]);
        const face = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        const along = [a, b, c].reduce((sum, v) => sum + face[0] * mesh.normals[v] + face[1] * mesh.normals[v + 1] + face[2] * mesh.normals[v + 2], 0);
        if (along < 0) against++;
      }
      assert.equal(against, 0, `${style.name}: ${against} triangles face against their normals`);
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

test('template 2.0: a card lies level across its width over the cranium, both edges as far off the scalp (a volume then lifts it without tilting it), but for an ear\'s rim', () => {
  const tpl = loadTemplateView('2.0');
  const lib = hairLibrary(tpl.source, tpl.hairCoverage);
  const c = lib.map.centre;
  const failed: string[] = [];
  for (const { style, mesh } of lib.styles) {
    const P = mesh.positions;
    const standoff = (v: number) => {
      const p: Vec3 = [P[v * 3], P[v * 3 + 1], P[v * 3 + 2]];
      const f = onScalp(lib.map, p, 0);
      return Math.hypot(p[0] - f[0], p[1] - f[1], p[2] - f[2]);
    };
    const scalpAt = (v: number) => surfaceRadius(lib.map, P[v * 3], P[v * 3 + 1], P[v * 3 + 2]);
    let nodes = 0, tilted = 0;
    for (const card of cardsOf(mesh)) {
      for (let k = 0; k + 1 < card.length; k += 2) {
        const [a, b] = [card[k], card[k + 1]];
        const mid = [0, 1, 2].map((j) => (P[a * 3 + j] + P[b * 3 + j]) / 2 - c[j]);
        if (mid[1] / Math.hypot(mid[0], mid[1], mid[2]) < -0.1) continue;
        // Where the map's surface steps between an edge and the middle (an ear's rim), the edges stay as grown.
        const middle = surfaceRadius(lib.map, mid[0] + c[0], mid[1] + c[1], mid[2] + c[2]);
        if (Math.max(Math.abs(scalpAt(a) - middle), Math.abs(scalpAt(b) - middle)) > 0.6) continue;
        const width = Math.hypot(P[a * 3] - P[b * 3], P[a * 3 + 1] - P[b * 3 + 1], P[a * 3 + 2] - P[b * 3 + 2]);
        nodes++;
        if (Math.abs(standoff(a) - standoff(b)) > 0.1 * width) tilted++;
      }
    }
    if (style.shellOnly || style.cardless || style.gather) continue;
    if (nodes < 100 || tilted > 0.03 * nodes) failed.push(`${style.name}: ${tilted} of ${nodes}`);
  }
  // Up to 3 % stay tilted (0-2.2 %: bob 14 of 648, against 281 of 647 before the levelling); why, not looked into.
  assert.deepEqual(failed, [], 'card nodes over the cranium tilted more than 6 degrees across (of at least 100)');
});

/** A style's clump cards: its small connected parts (the base volume and a sheet are one part each), their vertices in order, edge pairs along the card. */
function cardsOf(mesh: { positions: Float32Array; indices: Uint32Array }): number[][] {
  const n = mesh.positions.length / 3;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  const idx = mesh.indices;
  for (let t = 0; t < idx.length; t += 3) for (const k of [1, 2]) parent[find(idx[t + k])] = find(idx[t]);
  const parts = new Map<number, number[]>();
  for (let v = 0; v < n; v++) {
    const r = find(v);
    if (!parts.has(r)) parts.set(r, []);
    parts.get(r)!.push(v);
  }
  return [...parts.values()].filter((vs) => vs.length % 2 === 0 && vs.length <= 4 * 2 * HAIR_BUDGET['2.0'].maxNodes);
}

test('the strand texture: clump cards opaque in their body, tapering to points, starting soft; faint stubble', () => {
  const p = strandPattern();
  const alpha = (u: number, v: number) => p.alpha[Math.min(p.size - 1, Math.floor((1 - v) * p.size)) * p.size + Math.floor(u * p.size)];
  const column = ATLAS.cardsWidth / ATLAS.cardColumns;
  for (let k = 0; k < ATLAS.cardColumns; k++) {
    // Pixels covered across the column at a height (v 0.99 root .. 0.01 tip).
    const across = (v: number) => {
      let n = 0;
      for (let x = Math.ceil(k * column * p.size); x < (k + 1) * column * p.size; x++) n += alpha(x / p.size, v) >= 128 ? 1 : 0;
      return n;
    };
    const body = across(0.6), tip = across(0.08), root = across(0.985);
    assert.ok(body >= 0.85 * column * p.size * 0.95, `column ${k}: body covers ${body} px of ${Math.round(column * p.size)}`);
    assert.ok(tip < body * 0.5, `column ${k}: the tips cover ${tip} px against the body's ${body}: not tapered`);
    assert.ok(tip > 0, `column ${k}: no tips at all`);
    assert.ok(root < body * 0.9, `column ${k}: the root starts as a hard edge (${root} px)`);
  }
  const s = ATLAS.stubble;
  let most = 0;
  for (let v = s.v0 + s.feather; v < s.v1; v += 0.01) for (let u = s.u0; u < s.u1; u += 0.01) most = Math.max(most, alpha(u, v));
  assert.ok(most > 0 && most < 0.35 * 255, `stubble coverage up to ${most}: grains where a viewer cuts out at 0.35`);
});

test('template 2.0: every style with hair is a closed mass: from behind, from either side and from above no scalp shows through it', () => {
  const tpl = loadTemplateView('2.0');
  const lib = hairLibrary(tpl.source, tpl.hairCoverage);
  const geometry = tpl.meshes[0].geometry;
  // The scalp (triangles well inside the template's hairline) green, the rest of the head blue.
  const part = (scalp: boolean) => {
    const kept: number[] = [];
    for (let t = 0; t < geometry.indices.length; t += 3) {
      const inside = [0, 1, 2].every((k) => tpl.hairCoverage[geometry.indices[t + k]] >= 0.95);
      if (inside === scalp) kept.push(geometry.indices[t], geometry.indices[t + 1], geometry.indices[t + 2]);
    }
    return { ...geometry, indices: Uint32Array.from(kept) };
  };
  const head: RenderItem[] = [{ geometry: part(true), color: [0.1, 0.9, 0.1] }, { geometry: part(false), color: [0.1, 0.1, 0.9] }];
  const pattern = strandPattern();
  const rgba = new Uint8Array(pattern.alpha.length * 4);
  for (let i = 0; i < pattern.alpha.length; i++) rgba.set([220, 40, 40, pattern.alpha[i]], i * 4);
  const texture = { width: pattern.size, height: pattern.size, rgba };
  const size = 160, target: Vec3 = [0, 4, -5];
  const isScalp = (img: { rgba: Uint8Array }, i: number) => img.rgba[i * 4 + 3] > 0 && img.rgba[i * 4 + 1] > 2 * Math.max(img.rgba[i * 4], img.rgba[i * 4 + 2]);
  for (const [turn, up] of [[90, 0], [180, 0], [270, 0], [0, 100]]) {
    const a = (turn * Math.PI) / 180;
    const camera: Camera = { type: 'orthographic', viewHeight: 40, eye: [Math.sin(a) * 100, target[1] + up, target[2] + Math.cos(a) * 100], target, up: [0, 1, 0] };
    const bare = renderMeshes(head, camera, { width: size, height: size });
    for (const { style, mesh } of lib.styles) {
      if (style.shellOnly) continue;
      const img = renderMeshes([...head, { geometry: mesh, texture, alphaMode: 'MASK', alphaCutoff: 0.35, doubleSided: true }], camera, { width: size, height: size });
      let scalp = 0, shown = 0;
      for (let i = 0; i < size * size; i++) {
        if (!isScalp(bare, i)) continue;
        scalp++;
        if (isScalp(img, i)) shown++;
      }
      assert.ok(scalp > 1000, `${turn}°: ${scalp} scalp pixels`);
      assert.ok(shown <= scalp * 0.005, `${style.name} seen at ${turn}°${up ? ' from above' : ''}: ${shown} of ${scalp} scalp pixels show through the hair`);
    }
  }
});
