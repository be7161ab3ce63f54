import type { Figure } from './figure.ts';
import { generateTemplate } from '../src/geometry/template/build.ts';
import { loadCanonicalFace } from '../src/pipeline/canonical-face-file.ts';
import { checkMesh } from '../src/geometry/mesh/checks.ts';
import { vertexNormals } from '../src/geometry/mesh/normals.ts';
import { buildBlendshapes } from '../src/geometry/expressions/blendshapes.ts';

const RUNS = 5;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Median milliseconds of CPU time (stays meaningful when other work shares the cores) and of wall-clock time. */
function timed(fn: () => void, runs = RUNS): { cpu: number; wall: number } {
  fn(); // warm-up
  const cpu: number[] = [], wall: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { cpu: median(cpu), wall: median(wall) };
}
const cpuMs = (fn: () => void, runs = RUNS) => timed(fn, runs).cpu;

/**
 * Template generation from scratch (what a worker pays once per version at start-up), the mesh
 * checks on the 2.0 head and blendshape generation for it. Baseline: vertex normals of the 2.0
 * head, one linear pass over the same mesh.
 */
export default async function (): Promise<Figure[]> {
  // The first build in a fresh process also pays for compiling the code: what a worker sees at start-up.
  const c0 = process.cpuUsage();
  const head = generateTemplate('2.0', loadCanonicalFace()).head;
  const cold = process.cpuUsage(c0);
  const figures: Figure[] = [
    { key: 'template.build-2.0-first', value: Math.round((cold.user + cold.system) / 1000), unit: 'ms cpu', baseline: 'template.normals-2.0' },
    { key: 'template.normals-2.0', value: +cpuMs(() => vertexNormals(head.positions, head.indices)).toFixed(1), unit: 'ms cpu' },
  ];
  for (const version of ['1.6', '2.0'] as const) {
    figures.push({ key: `template.build-${version}`, value: +cpuMs(() => generateTemplate(version, loadCanonicalFace()), 3).toFixed(0), unit: 'ms cpu', baseline: 'template.normals-2.0' });
  }
  figures.push({ key: 'template.check-2.0', value: +cpuMs(() => checkMesh(head), 3).toFixed(0), unit: 'ms cpu', baseline: 'template.normals-2.0' });
  // All 52 ARKit shapes, 15 Oculus and 17 Polly visemes on a 2.0 head (its own neutral as the fitted geometry).
  const template = generateTemplate('2.0', loadCanonicalFace());
  const fitted = { head: template.head.positions, parts: Object.fromEntries(Object.entries(template.parts).map(([name, m]) => [name, m.positions])) };
  const shapes = timed(() => buildBlendshapes(template, fitted, ['expressions', 'visemes']));
  figures.push({ key: 'template.blendshapes-2.0', value: +shapes.cpu.toFixed(0), unit: 'ms cpu', baseline: 'template.normals-2.0', goal: '<= 300 ms' });
  figures.push({ key: 'template.blendshapes-2.0-wall', value: +shapes.wall.toFixed(0), unit: 'ms', baseline: 'template.normals-2.0', goal: '<= 300 ms' });
  return figures;
}
