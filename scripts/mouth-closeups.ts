/**
 * Close renders of each photo's neutral avatar (template 2.0) around the mouth, lit like the preview: from the front and
 * from 20 degrees below, side by side in `DIR/NAME.jpg` (1024 x 512), so that `scripts/before-after-sheet.ts --crop
 * 0,0,1024,512` can set two checkouts' side by side (the seam between the lips is thinner than a preview's pixel).
 * With `--shape NAME` the avatar shows that blendshape at weight 1 (mouthClose on jawOpen, as it is used); with `--at V`
 * the views centre on head vertex V instead of the mouth, and with `--yaw DEG` they turn DEG degrees about the vertical
 * towards the subject's left (negative: right), as for the jaw's angle (`--at 397 --yaw 70`). With `--flat` every mesh
 * is drawn untextured, the teeth blue and the tongue red: the opening the mesh leaves, whatever the texture shows.
 *   node --import tsx scripts/mouth-closeups.ts [--shape NAME] [--at V] [--yaw DEG] [--flat] DIR PHOTO...
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createPipeline } from '../src/pipeline/index.ts';
import { PHOTO_TEXTURE_LIGHT } from '../src/pipeline/output.ts';
import { renderMeshes } from '../src/geometry/render/rasterize.ts';
import { modelItems, softItems } from '../src/geometry/render/preview.ts';
import type { AvatarModel, Vec3 } from '../src/model/avatar.ts';
import { MADE_ON, type ArkitName } from '../src/geometry/expressions/arkit.ts';
import { vertexNormals } from '../src/geometry/mesh/normals.ts';
import { decodeMaterialTextures } from '../tools/decode-image.ts';

/** The views: camera elevation in degrees (negative: below the mouth). */
const VIEWS = [0, -20];
/** Camera distance (cm) and field of view (degrees): about 10 cm across at the mouth. */
const DISTANCE = 60;
const FOV = 10;
const SIZE = 512;
/** Head landmarks (the template's first 468 head vertices): the mouth's corners and the inner lips' middle. */
const MOUTH = [61, 291, 13, 14];

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const shape = option('--shape');
const centre = option('--at');
const yaw = (Number(option('--yaw') ?? 0) * Math.PI) / 180;
const flatAt = args.indexOf('--flat');
const flat = flatAt >= 0 && args.splice(flatAt, 1).length > 0;
/** `--flat`'s colours (linear), by mesh name; the rest grey. */
const FLAT: Record<string, [number, number, number]> = { teeth: [0.1, 0.3, 1], tongue: [1, 0.2, 0.2] };
const [dir, ...photos] = args;
if (!dir || photos.length === 0) {
  console.error('usage: node --import tsx scripts/mouth-closeups.ts [--shape NAME] [--at V] [--yaw DEG] [--flat] DIR PHOTO...');
  process.exit(2);
}

/** The model with the blendshape `name` (and the one it is made on) at weight 1 on every mesh. */
function shaped(model: AvatarModel, name: string): AvatarModel {
  const names = [name, MADE_ON[name as ArkitName]].filter((n): n is string => n !== undefined);
  const meshes = model.meshes.map((mesh) => {
    const positions = mesh.geometry.positions.slice();
    for (const n of names) {
      const deltas = mesh.morphs.find((m) => m.name === n)?.deltas;
      if (deltas) for (let i = 0; i < positions.length; i++) positions[i] += deltas[i];
    }
    return { ...mesh, geometry: { ...mesh.geometry, positions, normals: vertexNormals(positions, mesh.geometry.indices) } };
  });
  return { ...model, meshes };
}
mkdirSync(dir, { recursive: true });
const pipeline = await createPipeline();
for (const photo of photos) {
  const result = await pipeline.run({ inputType: 'photo', file: new Uint8Array(readFileSync(photo)), template: '2.0', features: ['expressions', 'visemes'] }, () => {});
  const head = result.model.meshes.find((m) => m.name === 'head')!.geometry.positions;
  const around = centre === undefined ? MOUTH : [Number(centre)];
  const mean = (k: number) => around.reduce((s, v) => s + head[v * 3 + k], 0) / around.length;
  const target: Vec3 = [mean(0), mean(1), mean(2)];
  const model = shape ? shaped(result.model, shape) : result.model;
  const textured = softItems(modelItems(model, await decodeMaterialTextures(model)));
  const items = flat
    ? textured.map((item, i) => ({ ...item, texture: undefined, normalMap: undefined, tangents: undefined, occlusion: undefined, color: FLAT[model.meshes[i].name] ?? [0.8, 0.8, 0.8] }))
    : textured;
  const views = await Promise.all(
    VIEWS.map((deg) => {
      const el = (deg * Math.PI) / 180;
      const level = DISTANCE * Math.cos(el);
      const eye: Vec3 = [target[0] + level * Math.sin(yaw), target[1] + DISTANCE * Math.sin(el), target[2] + level * Math.cos(yaw)];
      const img = renderMeshes(items, { type: 'perspective', fovY: FOV, eye, target, up: [0, 1, 0] }, { width: SIZE, height: SIZE, supersample: 2, light: PHOTO_TEXTURE_LIGHT });
      return sharp(Buffer.from(img.rgba.buffer, img.rgba.byteOffset, img.rgba.byteLength), { raw: { width: SIZE, height: SIZE, channels: 4 } }).png().toBuffer();
    }),
  );
  const sheet = sharp({ create: { width: SIZE * VIEWS.length, height: SIZE, channels: 3, background: '#808080' } }).composite(views.map((input, i) => ({ input, left: i * SIZE, top: 0 })));
  writeFileSync(path.join(dir, path.basename(photo).replace(/\.\w+$/, '.jpg')), await sheet.jpeg({ quality: 92 }).toBuffer());
  console.log(path.basename(photo));
}
process.exit(0);
