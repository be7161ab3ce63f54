/**
 * Mesh-input speed (issue 7): a head scan of about 100,000 triangles (the service's own photo avatar of
 * the sample photo, decimated then split 1:4, moved and saved in metres) to a finished result with template
 * 2.0 and all features, median of several runs, beside the photo pipeline on the same photo in the same
 * runs (the baseline), wall and CPU time, and the stages.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Figure } from './figure.ts';
import { createPipeline } from '../src/pipeline/index.ts';
import type { PhotoPipelineResult } from '../src/pipeline/photo-pipeline.ts';
import type { MeshPipelineResult } from '../src/pipeline/mesh/mesh-pipeline.ts';
import type { PipelineInput } from '../src/pipeline/types.ts';
import { avatarScan, decimate, moveRigid, split, zipScan } from '../test/fixtures/scans.ts';

const PHOTO = new URL('../assets/samples/sample-1.jpg', import.meta.url);
const RUNS = 5;
/** Grid of the decimation before the 1:4 split: about 25,000 triangles, so about 100,000 after. */
const DECIMATION_CM = 0.3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const round = (x: number) => Math.round(x * 10) / 10;

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await run();
  const wall = performance.now() - t0;
  const used = process.cpuUsage(c0);
  return { result, wall, cpu: (used.user + used.system) / 1000 };
}

export default async function (): Promise<Figure[]> {
  const pipeline = await createPipeline();
  const photo = new Uint8Array(readFileSync(PHOTO));
  const features: PipelineInput['features'] = ['basic', 'expressions', 'visemes'];
  const photoInput: PipelineInput = { inputType: 'photo', file: photo, template: '2.0', features };
  const avatar = await pipeline.run(photoInput, () => {});
  const { mesh, texture } = await avatarScan(avatar.model);
  const scan = moveRigid(split(decimate(mesh, DECIMATION_CM)), [0.2, 1, 0.1], 60, [3, -10, 2], 0.01);
  const meshInput: PipelineInput = { inputType: 'lofimesh_texture', file: await zipScan(scan, texture), template: '2.0', features };

  const m = { wall: [] as number[], cpu: [] as number[], photo: [] as number[], photoCpu: [] as number[] };
  const stages: Record<string, number[]> = {};
  // One warm-up run of each, then the measured runs, alternating so that both see the same load.
  for (let i = 0; i <= RUNS; i++) {
    const mr = await timed(() => pipeline.run(meshInput, () => {}) as Promise<MeshPipelineResult>);
    const pr = await timed(() => pipeline.run(photoInput, () => {}) as Promise<PhotoPipelineResult>);
    if (i === 0) continue;
    m.wall.push(mr.wall);
    m.cpu.push(mr.cpu);
    m.photo.push(pr.wall);
    m.photoCpu.push(pr.cpu);
    for (const [k, v] of Object.entries(mr.result.timings)) (stages[k] ??= []).push(v);
  }
  const figures: Figure[] = [
    { key: 'mesh-input.100k-triangles-to-result.median', value: round(median(m.wall)), unit: 'ms', baseline: 'mesh-input.photo-to-result.median', goal: '<= 3000 ms' },
    { key: 'mesh-input.100k-triangles-to-result.cpu.median', value: round(median(m.cpu)), unit: 'ms', baseline: 'mesh-input.photo-to-result.cpu.median' },
    { key: 'mesh-input.photo-to-result.median', value: round(median(m.photo)), unit: 'ms' },
    { key: 'mesh-input.photo-to-result.cpu.median', value: round(median(m.photoCpu)), unit: 'ms' },
    { key: 'mesh-input.input-triangles', value: scan.indices.length / 3, unit: '' },
    { key: 'mesh-input.load-average-1min', value: round(os.loadavg()[0]), unit: '' },
  ];
  for (const [k, v] of Object.entries(stages)) {
    figures.push({ key: `mesh-input.stage.${k}.median`, value: round(median(v)), unit: 'ms', baseline: 'mesh-input.photo-to-result.median' });
  }
  return figures;
}
