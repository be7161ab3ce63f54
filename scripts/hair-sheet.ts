/**
 * The hairstyle library's contact sheet: every style on the 2.0 template, front and side, in a mid
 * brown, to docs/hairstyles.png. Run: `node --import tsx scripts/hair-sheet.ts`.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { hairLibrary } from '../src/geometry/hair/library.ts';
import { tintHair } from '../src/geometry/hair/strand-texture.ts';
import { renderMeshes, type RenderItem } from '../src/geometry/render/rasterize.ts';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';
import type { Camera } from '../src/geometry/render/camera.ts';
import type { Vec3 } from '../src/model/avatar.ts';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'hairstyles.png');
const tpl = loadTemplateView('2.0');
const lib = hairLibrary(tpl.source, tpl.hairCoverage);
const texture = tintHair({ base: [92, 62, 40], dark: [48, 30, 20], light: [140, 100, 66] });
const head: RenderItem = { geometry: tpl.meshes[0].geometry, color: [0.85, 0.68, 0.58] };
const eyes: RenderItem[] = tpl.meshes.slice(1, 3).map((m) => ({ geometry: m.geometry, color: [0.9, 0.9, 0.9] }));
const camera = (turn: number): Camera => {
  const a = (turn * Math.PI) / 180;
  const target: Vec3 = [0, -1, -5];
  return { type: 'orthographic', viewHeight: 46, eye: [target[0] + Math.sin(a) * 200, target[1] + 20, target[2] + Math.cos(a) * 200], target, up: [0, 1, 0] };
};
const cells: SheetCell[] = [];
for (const { style, mesh } of lib.styles) {
  const hair: RenderItem = { geometry: mesh, texture, alphaMode: 'MASK', alphaCutoff: 0.35, doubleSided: true, mipmap: true };
  for (const [turn, view] of [[0, 'front'], [110, 'side'], [180, 'back']] as const) {
    cells.push({
      image: renderMeshes([head, ...eyes, hair], camera(turn), { width: 300, height: 300, supersample: 2 }),
      label: view === 'front' ? `${style.name} (${mesh.indices.length / 3} tris)` : view,
    });
  }
}
writeFileSync(out, await contactSheet(cells, { columns: 6, cellWidth: 220, cellHeight: 220, title: 'Hairstyle library, template 2.0' }));
console.log(`wrote ${out}`);
