/**
 * A sheet of closed eyes (eyeBlink* = 1), the eyeball dark red and the head grey, from the front and from 37 degrees
 * below, before and after a change to the lids' motion (EXPRESSIONS.md, `docs/blink-closed-light.png`).
 *   node --import tsx scripts/blink-sheet.ts tiles DIR TEMPLATE PHOTO:SIDE...   renders this checkout's tiles into DIR
 *   node --import tsx scripts/blink-sheet.ts sheet BEFORE_DIR AFTER_DIR OUT.png TITLE
 * (run `tiles` in a worktree of the earlier commit for BEFORE_DIR).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { AvatarMesh, Vec3 } from '../src/model/avatar.ts';
import type { TemplateVersion } from '../src/model/product.ts';
import { createPipeline } from '../src/pipeline/index.ts';
import { renderMeshes } from '../src/geometry/render/rasterize.ts';
import { vertexNormals } from '../src/geometry/mesh/normals.ts';

const FACES = path.resolve(import.meta.dirname, '../test/fixtures/faces');
const TILE = 300;
const VIEWS = [['front', 0], ['37° below', 37]] as const;

async function tiles(dir: string, template: TemplateVersion, eyes: string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const pipeline = await createPipeline();
  for (const spec of eyes) {
    const [photo, side] = spec.split(':') as [string, 'Left' | 'Right'];
    const { model } = await pipeline.run({ inputType: 'photo', file: readFileSync(path.join(FACES, `${photo}.jpg`)), template, features: ['expressions'] }, () => {});
    const mesh = (name: string) => model.meshes.find((m) => m.name === name)!;
    const closed = (m: AvatarMesh) => {
      const deltas = m.morphs.find((t) => t.name === `eyeBlink${side}`)?.deltas;
      const positions = deltas ? m.geometry.positions.map((x, i) => x + deltas[i]) : m.geometry.positions;
      return { ...m.geometry, positions, normals: vertexNormals(positions, m.geometry.indices) };
    };
    const eye = mesh(`eye${side}`).geometry.positions, centre = [0, 0, 0];
    for (let i = 0; i < eye.length; i++) centre[i % 3] += eye[i] / (eye.length / 3);
    for (const [name, degrees] of VIEWS) {
      const a = (degrees * Math.PI) / 180, towards = [0, -Math.sin(a), Math.cos(a)];
      const camera = { type: 'orthographic' as const, viewHeight: 2.4, eye: centre.map((c, k) => c + 30 * towards[k]) as Vec3, target: centre as Vec3, up: [0, 1, 0] as Vec3 };
      const image = renderMeshes([{ geometry: closed(mesh('head')) }, { geometry: closed(mesh(`eye${side}`)), color: [0.45, 0.02, 0.02] }], camera, { width: TILE, height: TILE, mode: 'grey' });
      await sharp(Buffer.from(image.rgba), { raw: { width: TILE, height: TILE, channels: 4 } }).png().toFile(path.join(dir, `${template} ${photo} ${side[0]}, ${name}.png`));
    }
  }
  process.exit(0);
}

async function sheet(before: string, after: string, out: string, title: string): Promise<void> {
  const names = readdirSync(after).filter((f) => f.endsWith('.png')).sort();
  const rows = [...new Set(names.map((n) => n.split(',')[0]))];
  const label = (text: string, width: number, size: number) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${size + 12}"><text x="${width / 2}" y="${size + 2}" font-size="${size}" font-family="sans-serif" text-anchor="middle">${text}</text></svg>`);
  const cell = TILE + 10, head = 40, caption = 26;
  const parts: sharp.OverlayOptions[] = [{ input: label(title, 4 * cell, 20), left: 0, top: 6 }];
  rows.forEach((row, r) => {
    let col = 0;
    for (const [view] of VIEWS) for (const [when, dir] of [['before', before], ['after', after]] as const) {
      const file = `${row}, ${view}.png`;
      const top = head + r * (cell + caption), left = col++ * cell + 5;
      parts.push({ input: path.join(dir, file), left, top }, { input: label(`${row}: ${when}, ${view}`, TILE, 14), left, top: top + TILE + 2 });
    }
  });
  await sharp({ create: { width: 4 * cell, height: head + rows.length * (cell + caption), channels: 3, background: 'white' } }).composite(parts).png().toFile(out);
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'tiles') await tiles(rest[0], rest[1] as TemplateVersion, rest.slice(2));
else if (mode === 'sheet') await sheet(rest[0], rest[1], rest[2], rest[3]);
else {
  writeFileSync(2, 'usage: blink-sheet.ts tiles DIR TEMPLATE PHOTO:SIDE... | sheet BEFORE_DIR AFTER_DIR OUT.png TITLE\n');
  process.exit(2);
}
