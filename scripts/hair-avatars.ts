/**
 * Six avatars with different hairstyles from the test photos, front, side and back, beside their photo,
 * to docs/hair-avatars.png. Run: `node --import tsx scripts/hair-avatars.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { decodeMaterialTextures } from '../tools/decode-image.ts';
import { modelItems, previewCamera, softItems } from '../src/geometry/render/preview.ts';
import { renderMeshes } from '../src/geometry/render/rasterize.ts';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';
import { PHOTO_TEXTURE_LIGHT } from '../src/pipeline/output.ts';
import type { Camera } from '../src/geometry/render/camera.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Photos tried in this order until six different hairstyles are found. */
const PHOTOS = ['p01-b', 'p04-a', 'p08-a', 'p12-a', 'p02-a', 'p03-a', 'p10-b', 'p05-a', 'p11-a', 'p13-a', 'p09-a', 'p07-a', 'p06-a', 'p10-a', 'p03-b', 'p01-a'];
const SIZE = 360;

const pipeline = new PhotoPipeline(loadTemplateView);
const cells: SheetCell[] = [];
const seen = new Set<string>();
for (const name of PHOTOS) {
  if (seen.size === 6) break;
  const photo = readFileSync(join(root, 'test/fixtures/faces', `${name}.jpg`));
  const r = await pipeline.run({ inputType: 'photo', file: new Uint8Array(photo), template: '2.0', features: [] }, () => {});
  const style = r.meta.hairstyle;
  if (style === 'none' || seen.has(style)) continue;
  seen.add(style);
  // As the service's preview draws them: the hair soft (opaque texels first, partial ones blended back to front).
  const items = softItems(modelItems(r.model, await decodeMaterialTextures(r.model)));
  const front = previewCamera(r.model, 'front') as Extract<Camera, { type: 'perspective' }>;
  const [t, e] = [front.target, front.eye];
  const back: Camera = { ...front, eye: [2 * t[0] - e[0], e[1], 2 * t[2] - e[2]] };
  const render = (camera: Camera) => renderMeshes(items, camera, { width: SIZE, height: SIZE, supersample: 2, light: PHOTO_TEXTURE_LIGHT });
  cells.push(
    { image: new Uint8Array(photo), label: `${name}: ${style}` },
    { image: render(front), label: 'front' },
    { image: render(previewCamera(r.model, 'side')), label: 'side' },
    { image: render(back), label: 'back' },
  );
  console.log(name, style);
}
const out = join(root, 'docs', 'hair-avatars.png');
writeFileSync(out, await contactSheet(cells, { columns: 4, cellWidth: 260, cellHeight: 260, title: 'Avatars with their hairstyles (template 2.0)' }));
console.log(`wrote ${out}`);
