/**
 * The render sheets of issue 20 (docs/asset-anatomy.png; with --closeups docs/asset-eyes.png): three
 * avatars rendered in Blender from their FBX (front, side, three-quarter, left ear; or the eyes open,
 * closed and the mouth open; with --mouth docs/asset-mouth.png: the mouth in jawOpen, viseme_aa and tongueOut from the front,
 * jawOpen from three-quarter; with --jaw docs/jaw-bone.png: the jaw bone turned open 20 degrees, from the side and from
 * below the chin; with --neck docs/neck-bones.png: the neck bone tilted back 30 degrees and the head bone nodded 30;
 * with --hair docs/hair-blender.png: the hair close from the front, three-quarter, the side and behind; with --hair-pose
 * docs/hair-pose.png: hanging hair with the neck tilted back or turned and the head rolled; with --beard
 * docs/beard.png: front, three-quarter and side of bearded avatars; with --skin docs/skin-grain.png: the skin beside
 * the face from three-quarter, the side and the ear close; with --nape docs/nape.png: the head and the neck
 * down to the shoulders from the front, the side, three-quarter behind and behind; with --face docs/skin-mirror.png: the
 * face close from the front and three-quarter on either side; with --package-views
 * docs/package-views.png: the packages' own three-quarter and side views, as the pipeline draws them with every map,
 * which Blender's FBX import leaves the occlusion map out of), made by the code at `--before` (a checkout of an earlier commit, with
 * node_modules) and by this checkout.
 *   node --import tsx scripts/asset-anatomy-sheet.ts [--closeups] --before /path/to/old/checkout [--out docs/asset-anatomy.png]
 * --only after re-makes only this checkout's avatars and renders, with the before ones of an earlier run in --work.
 * --title TEXT says on the sheet what changed between before and after; --photos a,b,c picks the test photos.
 * Needs Blender 3.4 on the PATH.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contactSheet, type SheetCell } from '../tools/contact-sheet.ts';

const here = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
/**
 * What a sheet shows: render-fbx-views.py's mode and the views it writes in it (or, with `fromPipeline`, the package
 * views the pipeline itself draws: `package-front`, `package-three-quarter`, `package-side`), the sheet's name, its
 * title and the avatars' features.
 */
interface SheetKind {
  mode?: string;
  fromPipeline?: boolean;
  views: string[];
  name: string;
  title: (labels: string) => string;
  features: string[];
}
/** The sheets, by the flag that asks for one (the first flag given wins, in this order); the anatomy sheet without one. */
const KINDS: Record<string, SheetKind> = {
  /** The jaw bone turned open 20 degrees, from the side and from below the chin. */
  '--jaw': { mode: 'jaw', views: ['jaw-side', 'jaw-below'], name: 'jaw-bone', title: (l) => `The jaw bone open 20°, Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** The neck tilted back 30 degrees (the nape) and the head nodded 30 degrees (the throat), from the side. */
  '--neck': { mode: 'neck', views: ['neck-back', 'head-nod'], name: 'neck-bones', title: (l) => `Neck back 30°, head nod 30° (Blender, FBX): ${l}`, features: ['basic'] },
  /** The hair close, from a little above: front, three-quarter, side and back. */
  '--hair': { mode: 'hair', views: ['hair-front', 'hair-three-quarter', 'hair-side', 'hair-back'], name: 'hair-blender', title: (l) => `The hair in Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** Hanging hair with the neck tilted back and turned and the head rolled, from behind. */
  '--hair-pose': { mode: 'hair-pose', views: ['pose-back', 'pose-turn', 'pose-roll'], name: 'hair-pose', title: (l) => `Neck back 30°, neck turned 40°, head rolled 30° (Blender, FBX): ${l}`, features: ['basic'] },
  /** The beard under the chin and along the jaw: front, three-quarter and side. */
  '--beard': { mode: 'beard', views: ['beard-front', 'beard-three-quarter', 'beard-side'], name: 'beard', title: (l) => `A beard beyond the face oval, Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** The skin beside the face, where the photo gives no colour: three-quarter, side and the ear close. */
  '--skin': { views: ['three-quarter', 'side', 'ear'], name: 'skin-grain', title: (l) => `The skin beside the face, Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** The face close from the front and three-quarter on either side: a turned photo's far side. */
  '--face': { mode: 'face', views: ['face-front', 'face-right', 'face-left'], name: 'skin-mirror', title: (l) => `The face from the front and either side, Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** The occiput, the nape and the neck's foot on the shoulders: front, side, three-quarter from behind and behind. */
  '--nape': { mode: 'nape', views: ['nape-front', 'nape-side', 'nape-back-three-quarter', 'nape-back'], name: 'nape', title: (l) => `The head and the neck down to the shoulders, Blender (Cycles) from the FBX: ${l}`, features: ['basic'] },
  /** The packages' own views (preview_three_quarter.png, preview_side.png), drawn by the pipeline with every map. */
  '--package-views': { fromPipeline: true, views: ['package-three-quarter', 'package-side'], name: 'package-views', title: (l) => `The packages' own views, drawn by the pipeline with all maps: ${l}`, features: ['basic'] },
  /** The mouth open in the shapes that show its inside. */
  '--mouth': {
    mode: 'mouth',
    views: ['mouth', 'mouth-aa', 'mouth-tongue', 'mouth-three-quarter'],
    name: 'asset-mouth',
    title: (l) => `From their FBX in Blender (Cycles): ${l} (issue 20: the open mouth: jawOpen, viseme_aa, tongueOut, jawOpen from three-quarter)`,
    features: ['basic', 'expressions', 'visemes'],
  },
  /** The eyes open, the left one close up, the eyes closed (front, below) and the mouth open. */
  '--closeups': {
    mode: 'closeups',
    views: ['eyes', 'eye-close', 'eyes-closed', 'eyes-closed-below', 'mouth'],
    name: 'asset-eyes',
    title: (l) => `From their FBX in Blender (Cycles): ${l} (issue 20: cornea, lashes, tear line, caruncle; blink; open mouth)`,
    features: ['basic'],
  },
};
const ANATOMY: SheetKind = { views: ['front', 'side', 'three-quarter', 'ear'], name: 'asset-anatomy', title: (l) => `Avatars from their FBX in Blender (Cycles): ${l} (issue 20: ears, bust)`, features: ['basic'] };
const kind = KINDS[Object.keys(KINDS).find((flag) => args.includes(flag)) ?? ''] ?? ANATOMY;
const option = (name: string, fallback?: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const before = option('--before');
/** --photos a,b,c: the test photos whose avatars are drawn (a bald head shows the whole ear). */
const PHOTOS = option('--photos', 'p05-a,p13-a,p03-a')!.split(',');
const out = path.resolve(option('--out', path.join(here, 'docs', `${kind.name}.png`))!);
const work = path.resolve(option('--work', path.join(os.tmpdir(), `${kind.name}-sheet`))!);

/** Runs the photo pipeline of the checkout `root` on each photo and writes its FBX and textures to work/<label>/<photo>/. */
function exportAvatars(root: string, label: string): void {
  const driver = `
    import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
    import path from 'node:path';
    const { createPipeline } = await import(${JSON.stringify(path.join(root, 'src/pipeline/index.ts'))});
    const { writeFbx } = await import(${JSON.stringify(path.join(root, 'src/formats/write/fbx/write.ts'))});
    // The FBX names roughness and metallic maps split from the packed glTF one, which the packages carry beside
    // it; without them Blender renders every skin as polished (checkouts before the split have no such module).
    const channelMaps = await import(${JSON.stringify(path.join(root, 'src/formats/write/fbx/channel-maps.ts'))}).catch(() => undefined);
    const pipeline = await createPipeline();
    for (const photo of ${JSON.stringify(PHOTOS)}) {
      const file = readFileSync(path.join(${JSON.stringify(path.join(here, 'test/fixtures/faces'))}, photo + '.jpg'));
      const r = await pipeline.run({ inputType: 'photo', file, template: '2.0', features: ${JSON.stringify(kind.features)} }, () => {});
      const dir = path.join(${JSON.stringify(path.join(work, label))}, photo);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'avatar_model.fbx'), writeFbx(r.model));
      for (const t of r.model.textures) writeFileSync(path.join(dir, t.name), t.data);
      for (const t of (await channelMaps?.channelMapTextures(r.model)) ?? []) writeFileSync(path.join(dir, t.name), t.data);
      for (const [name, png] of [['front', r.views.front], ['three-quarter', r.views.threeQuarter], ['side', r.views.side]]) writeFileSync(path.join(dir, 'view-package-' + name + '.png'), png);
    }
    await pipeline.close?.();
    process.exit(0);
  `;
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', driver], { cwd: root, stdio: 'inherit' });
}

function render(label: string): void {
  for (const photo of PHOTOS) {
    const dir = path.join(work, label, photo);
    execFileSync('blender', ['-b', '--factory-startup', '-P', path.join(here, 'scripts', 'render-fbx-views.py'), '--', path.join(dir, 'avatar_model.fbx'), path.join(dir, 'view'), '400', ...(kind.mode ? [kind.mode] : [])], { stdio: 'ignore' });
  }
}

mkdirSync(work, { recursive: true });
const labels = before ? ['before', 'after'] : ['after'];
const remake = labels.filter((label) => !option('--only') || option('--only') === label);
// --render-only re-renders the FBX files of an earlier run.
if (!args.includes('--render-only')) {
  if (before && remake.includes('before')) exportAvatars(path.resolve(before), 'before');
  if (remake.includes('after')) exportAvatars(here, 'after');
}
if (!kind.fromPipeline) for (const label of remake) render(label);
const cells: SheetCell[] = [];
for (const photo of PHOTOS) {
  for (const label of labels) for (const view of kind.views) cells.push({ image: readFileSync(path.join(work, label, photo, `view-${view}.png`)), label: `${photo} ${label}: ${view}` });
}
const sheet = await contactSheet(cells, {
  columns: kind.views.length * labels.length,
  cellWidth: 260,
  cellHeight: 260,
  background: [236, 236, 238],
  title: option('--title') ?? kind.title(labels.join(' and ')),
});
writeFileSync(out, sheet);
console.log(`wrote ${out}`);
