/** Running the mesh pipeline in tests, and the checks every mesh-input test makes on its result. */
import assert from 'node:assert/strict';
import type { TemplateVersion } from '../../src/model/avatar.ts';
import { loadTemplateView } from '../../src/pipeline/template-source.ts';
import { runMeshPipeline, type MeshPipelineResult } from '../../src/pipeline/mesh/mesh-pipeline.ts';
import type { InputType } from '../../src/model/product.ts';
import { decodeImage } from '../../tools/decode-image.ts';
import { checkMesh } from '../../src/geometry/mesh/checks.ts';
import { boundaryLoops } from '../../src/geometry/mesh/adjacency.ts';
import { surfaceError } from './surface-error.ts';

export async function run(file: Uint8Array, inputType: InputType, template: TemplateVersion, features: ('basic' | 'expressions' | 'visemes')[] = []) {
  const progress: number[] = [];
  const result = await runMeshPipeline({ inputType, file, template, features }, (p) => progress.push(p), loadTemplateView);
  assert.deepEqual(progress, [...progress].sort((a, b) => a - b));
  return result;
}

/** Surface and texture error of the output's face (or `vertices` of it) against the input surface (moved rigidly into the avatar's frame). */
export async function faceError(result: MeshPipelineResult, template: TemplateVersion, vertices = loadTemplateView(template).source.regions.face) {
  const head = result.model.meshes[0].geometry;
  const texture = await decodeImage(result.model.textures.find((t) => t.name === 'head_baseColor.png')!.data);
  return surfaceError(head, texture, vertices, result.registration.scan, result.scan.texture);
}

/** Closed, manifold, outward, no self-intersection (a fold) and no degenerate triangle; the neck cut is the one opening. */
export function assertValidHead(result: MeshPipelineResult) {
  const head = result.model.meshes[0].geometry;
  const loops = boundaryLoops(head.indices);
  const neck = loops.reduce<number[]>((a, b) => (b.length > a.length ? b : a), []);
  const r = checkMesh(head, { openBoundaries: [neck] });
  assert.ok(r.closed && r.manifold && r.outwardFacing && r.selfIntersections === 0 && r.degenerateTriangles === 0, JSON.stringify(r));
}
