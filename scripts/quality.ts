/**
 * Quality tool: runs the photo pipeline on photos and prints landmark error, identity distance,
 * verification, the head silhouette, the skin colour, the front preview's mouth gap and corner lift, mesh
 * checks and the landmark model's and segmentation's times per photo and overall.
 *   npm run --silent quality -- [--json] [--template 2.0] [--features basic,expressions,visemes] [--gallery docs/gallery.png] [--previews DIR] [--mirrored] [--reencoded Q] PHOTO...
 * --previews writes each front preview as DIR/<photo>.jpg (for before/after sheets).
 * --mirrored evaluates each photo's mirror image instead: the landmark detector does not read a mirror image as the
 * same photo mirrored, so it stands in for photos the tuning never saw.
 * --reencoded Q evaluates each photo saved again as a JPEG of quality Q (1-100; upright first): nothing a person would
 * see changes, so how far the figures move is their noise, the least a change must move them by to count.
 * Person ids come from a manifest.json next to the photos (files with the same person id show the same person).
 */
import { readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PhotoPipeline } from '../src/pipeline/photo-pipeline.ts';
import { loadTemplateView } from '../src/pipeline/template-source.ts';
import { landmarkModel } from '../src/pipeline/face/landmark-model.ts';
import { evaluatePhotos, type PhotoCase, type QualityReport } from '../tools/quality/evaluate.ts';
import type { SkinPair } from '../tools/quality/skin-colour.ts';
import { contactSheet } from '../tools/contact-sheet.ts';
import type { Feature } from '../src/model/product.ts';
import type { TemplateVersion } from '../src/model/avatar.ts';

class UsageError extends Error {}

const USAGE = 'usage: npm run --silent quality -- [--json] [--template 2.0|1.6] [--features list] [--gallery out.png] [--previews dir] [--mirrored] [--reencoded Q] PHOTO...';

function parseArgs(argv: string[]) {
  const opts = { json: false, help: false, mirrored: false, reencoded: 0, template: '2.0' as TemplateVersion, features: ['basic', 'expressions', 'visemes'] as Feature[], gallery: '', previews: '', photos: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--template') opts.template = argv[++i] as TemplateVersion;
    else if (a === '--features') opts.features = argv[++i].split(',').filter(Boolean) as Feature[];
    else if (a === '--gallery') opts.gallery = argv[++i];
    else if (a === '--previews') opts.previews = argv[++i];
    else if (a === '--mirrored') opts.mirrored = true;
    else if (a === '--reencoded') opts.reencoded = jpegQuality(argv[++i]);
    else if (a === '--help' || a === '-h') opts.help = true;
    // An unknown option is a mistake, not a photo's file name.
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else opts.photos.push(a);
  }
  return opts;
}

function jpegQuality(arg: string | undefined): number {
  const q = Number(arg);
  if (!Number.isInteger(q) || q < 1 || q > 100) throw new UsageError(`--reencoded takes a JPEG quality from 1 to 100, not ${arg}`);
  return q;
}

function personOf(file: string): string | undefined {
  const manifest = path.join(path.dirname(file), 'manifest.json');
  if (!existsSync(manifest)) return undefined;
  const m = JSON.parse(readFileSync(manifest, 'utf8')) as { photos: { file: string; person: string }[] };
  return m.photos.find((p) => p.file === path.basename(file))?.person;
}

function printTable(r: QualityReport): void {
  const f = (x: number | undefined, d = 3) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d));
  console.log(`template ${r.template}`);
  console.log('photo'.padEnd(26), 'status'.padEnd(8), 'lm-err', 'posed', '  gap', ' lift', ' ident', ' same', ' other', 'verified', '  sil', 'mesh', 'skin L,a,b'.padStart(13), 'cheeks', ' c-ab', '   ms', 'lm-ms', 'seg-ms');
  for (const p of r.photos) {
    if (p.status === 'refused') {
      console.log(p.name.padEnd(26), 'refused', `${p.code} ${p.message}`);
      continue;
    }
    console.log(
      p.name.padEnd(26),
      'done'.padEnd(8),
      f(p.landmarkError).padStart(6),
      f(p.posedLandmarkError).padStart(5),
      f(p.mouthGap).padStart(5),
      f(p.mouthLift).padStart(5),
      f(p.identityDistance).padStart(6),
      f(p.samePersonDistance, 2).padStart(5),
      f(p.otherPersonDistance, 2).padStart(5),
      String(p.verified ?? '-').padStart(8),
      f(p.headSilhouette).padStart(5),
      p.meshValid ? '  ok' : ' BAD',
      (p.skinLab ? p.skinLab.map((x) => x.toFixed(0)).join(',') : '-').padStart(13),
      f(p.cheekBalance, 2).padStart(6),
      f(p.cheekChroma, 1).padStart(5),
      String(Math.round(p.totalMs ?? 0)).padStart(5),
      String(Math.round(p.landmarkMs ?? 0)).padStart(5),
      String(Math.round(p.segmentationMs ?? 0)).padStart(6),
    );
  }
  const o = r.overall;
  console.log(
    `overall: ${o.done} done, ${o.refused} refused; mean landmark error ${f(o.meanLandmarkError)} (goal < ${r.goals.landmarkError}); ` +
      `with the photo's expression put back ${f(o.meanPosedLandmarkError)}; ` +
      `mean identity distance ${f(o.meanIdentityDistance)} (goal < ${r.goals.identityDistance}); ` +
      `mouth gap mean ${f(o.meanMouthGap)} max ${f(o.maxMouthGap)} (goal <= ${r.goals.mouthGap} on every photo); ` +
      `mouth lift mean ${f(o.meanMouthLift)} (goal <= ${r.goals.mouthLift}) max ${f(o.maxMouthLift)}; verified ${o.verified}/${o.verifiable}; valid meshes ${o.meshValid}/${o.done}; ` +
      `skin colour of the same person: mean ΔE ${f(o.skinDeltaE, 1)} over ${o.skinPairs} pairs (goal <= ${r.goals.skinDeltaE}), of different people ${f(o.skinSpreadDeltaE, 1)} apart, L* SD ${f(o.skinLightnessSd, 1)}; ` +
      `cheek balance (darker over brighter, 1 even) mean ${f(o.meanCheekBalance, 2)}, lowest ${f(o.minCheekBalance, 2)}; ` +
      `cheeks' a*b* distance mean ${f(o.meanCheekChroma, 1)}, highest ${f(o.maxCheekChroma, 1)}; ` +
      `the side views' skin behind the face, hue's distance from the skin tone's mean ${f(o.meanSideSkinHue)}, highest ${f(o.maxSideSkinHue)}; ` +
      `the skin filled in beside the face against the cheeks, on the albedo: mean ΔL* ${f(o.meanBesideFaceLightness, 1)}, mean ΔE ${f(o.meanBesideFaceDeltaE, 1)}; ` +
      `the irises on the previews against the photos' (1 as light) median ${f(o.medianIrisLightness, 2)}, ${f(o.minIrisLightness, 2)}-${f(o.maxIrisLightness, 2)}, ` +
      `the eyes' white median ${f(o.medianScleraLightness, 2)}, ${f(o.minScleraLightness, 2)}-${f(o.maxScleraLightness, 2)}`,
  );
  const pairLine = (p: SkinPair) => `${p.names.join('/')} ΔE ${f(p.deltaE, 1)} (ΔL* ${f(p.difference[0], 1)}, Δa* ${f(p.difference[1], 1)}, Δb* ${f(p.difference[2], 1)})`;
  if (o.skinByPair.length) console.log(`skin per pair, previews: ${o.skinByPair.map(pairLine).join('; ')}; photos: ${o.photoSkinByPair.map(pairLine).join('; ')}`);
  const done = r.photos.filter((p) => p.status === 'done');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(
    `head silhouette: mean ${f(o.meanHeadSilhouette)} (goal >= ${r.goals.meanHeadSilhouette}), lowest ${f(o.minHeadSilhouette)} (goal >= ${r.goals.minHeadSilhouette}); ` +
      `median times: landmark model ${Math.round(median(done.map((p) => p.landmarkMs ?? 0)) ?? 0)} ms, segmentation ${Math.round(median(done.map((p) => p.segmentationMs ?? 0)) ?? 0)} ms`,
  );
}

let opts: ReturnType<typeof parseArgs>;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`${e.message}\n${USAGE}`);
  process.exit(2);
}
if (opts.help) {
  console.log(USAGE);
  process.exit(0);
}
if (opts.photos.length === 0) {
  console.error(USAGE);
  process.exit(2);
}
await landmarkModel();
/** The photo as evaluated: upright first (as the pipeline reads it), mirrored or saved again when asked. */
async function variant(bytes: Buffer): Promise<Buffer> {
  if (opts.mirrored) return sharp(bytes).rotate().flop().jpeg({ quality: opts.reencoded || 95 }).toBuffer();
  if (opts.reencoded) return sharp(bytes).rotate().jpeg({ quality: opts.reencoded }).toBuffer();
  return bytes;
}
const cases: PhotoCase[] = await Promise.all(
  opts.photos.map(async (file) => ({ name: path.basename(file), bytes: await variant(readFileSync(file)), person: personOf(file) })),
);
const previews = new Map<string, Uint8Array>();
const report = await evaluatePhotos(new PhotoPipeline(loadTemplateView), cases, {
  template: opts.template,
  features: opts.features,
  onPreview: (name, jpg) => previews.set(name, jpg),
});
if (opts.previews) {
  mkdirSync(opts.previews, { recursive: true });
  for (const [name, jpg] of previews) writeFileSync(path.join(opts.previews, name.replace(/\.\w+$/, '.jpg')), jpg);
}
if (opts.gallery) {
  const cells = cases.flatMap((c) => {
    const q = report.photos.find((p) => p.name === c.name)!;
    const preview = previews.get(c.name);
    return [
      { image: c.bytes, label: c.name },
      preview ? { image: preview, label: `avatar (ident ${q.identityDistance?.toFixed(2)})` } : { image: c.bytes, label: `refused ${q.code}` },
    ];
  });
  const sheet = await contactSheet(cells, { columns: 6, cellWidth: 260, cellHeight: 260, title: `Photo -> avatar (template ${opts.template})` });
  // A palette PNG is a third of the size and looks the same at this scale (the file lives in the repository).
  writeFileSync(opts.gallery, await sharp(sheet).png({ palette: true, quality: 90, effort: 7 }).toBuffer());
}
if (opts.json) console.log(JSON.stringify(report, null, 1));
else printTable(report);
