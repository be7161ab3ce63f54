import { buildBasicAnimations } from '../geometry/expressions/animations.ts';
import { blendshapeNames, buildShapesAtRest } from '../geometry/expressions/blendshapes.ts';
import type { AvatarModel, MeshData } from '../model/avatar.ts';
import type { Deltas } from '../geometry/expressions/frame.ts';
import type { MeshName } from '../geometry/template/types.ts';
import { vertexNormals } from '../geometry/mesh/normals.ts';
import { untangle } from '../geometry/fit/untangle.ts';
import { unfoldLashes } from '../geometry/template/bound-parts.ts';
import type { TemplateView } from './template-view.ts';
import type { PipelineInput, ProgressFn } from './types.ts';

/**
 * Times each stage and reports its percent: `lap(stage, percent)` when a stage ends. `cpuTimings` holds
 * the process's CPU time in each stage (ms, every thread: sharp's encoders count where they run), which
 * other load on the machine disturbs far less than wall time.
 */
export function stageClock(progress: ProgressFn) {
  const timings: Record<string, number> = {};
  const cpuTimings: Record<string, number> = {};
  let clock = performance.now();
  let cpu = process.cpuUsage();
  const lap = (stage: string, percent: number) => {
    const now = performance.now();
    const used = process.cpuUsage(cpu);
    timings[stage] = now - clock;
    cpuTimings[stage] = (used.user + used.system) / 1000;
    clock = now;
    cpu = process.cpuUsage();
    progress(percent, stage);
  };
  return { timings, cpuTimings, lap };
}

/**
 * The blendshapes and clips the features ask for, on the fitted geometry. `basic` needs the few
 * shapes its clips drive, so every feature asks for blendshapes. Their deltas are made in one buffer from `allocate`.
 * With `lidRest`, the neutral's upper lids rest that share of the way to closed (buildShapesAtRest): `rest` holds each
 * mesh's offset to that rest, whatever the features.
 */
export function featureShapes(
  tpl: TemplateView,
  fitted: { head: Float32Array; parts: Record<string, Float32Array> },
  features: PipelineInput['features'],
  allocate: (bytes: number) => ArrayBufferLike = (bytes) => new ArrayBuffer(bytes),
  lidRest = 0,
) {
  const names = blendshapeNames(features);
  const built = names.length > 0 || lidRest > 0 ? buildShapesAtRest(tpl.source, fitted, features, allocate, lidRest) : undefined;
  const animations = features.includes('basic') ? buildBasicAnimations(names) : [];
  return { morphs: names.length > 0 ? built?.morphs : undefined, animations, rest: built?.rest };
}

/**
 * Where a photo gives the lids (the photo path, hifimesh), the neutral's upper lids rest this share of the way to
 * closed, along the avatar's own blink (featureShapes): the detector's upper eye contour runs along the lash line,
 * about 2 mm above the margin of an opening about 10 mm tall, and the lids fitted to it showed white above the iris
 * that the photo's lashes and their shadow hide. A blink at 1 closes the lids where it did. Identity distance on the
 * test photos 0.4320 -> 0.4199 (0.4227 at 0.3).
 */
export const LID_REST = 0.2;

/**
 * Moves each mesh by its offset to the lids' rest (featureShapes' `rest`; none: as they are), its normals with it. The
 * rest is a blink's share, and a blink is kept free of folds only where it ends: part of the way, the socket's lining
 * behind a lid can cross itself (the photo p10-a at half its size: 8 pairs), so the head is untangled towards its shape
 * before the rest; a lash card can fold at a lid's outer corner, and is unfolded (unfoldLashes).
 */
export function restLids(tpl: TemplateView, geometries: MeshData[], rest: Deltas | undefined): void {
  if (!rest) return;
  // Loops, not callbacks made per avatar: their optimised code died with them, compiled again every job.
  for (let i = 0; i < tpl.meshes.length; i++) {
    const m = tpl.meshes[i];
    const offset = rest[m.name as MeshName];
    let moves = false;
    for (let k = 0; k < offset.length && !moves; k++) moves = offset[k] !== 0;
    if (!moves) continue;
    const g = geometries[i];
    const before = m.name === 'head' ? g.positions.slice() : undefined;
    for (let k = 0; k < offset.length; k++) g.positions[k] += offset[k];
    if (before) untangle(g.positions, before, m.geometry.indices, tpl.foldProne);
    if (m.name === 'eyelashes') unfoldLashes(tpl.source, g.positions);
    g.normals = vertexNormals(g.positions, m.geometry.indices);
  }
}

/** The pipeline meta entries that say what a finished avatar supports (docs/PIPELINE.md). */
export function supportsMeta(template: string, model: AvatarModel): Record<string, string> {
  const morphs = new Set(model.meshes.flatMap((m) => m.morphs.map((t) => t.name)));
  return {
    template,
    'supports-expressions': String(blendshapeNames(['expressions']).every((n) => morphs.has(n))),
    'supports-visemes': String(blendshapeNames(['visemes']).every((n) => morphs.has(n))),
    'supports-basic-animation': String(model.animations.length > 0),
    'supports-deformation': 'true',
  };
}
