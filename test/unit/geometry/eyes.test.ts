/**
 * Eyeballs after fitting: inside the fitted sockets and lids (no triangle of an eye cuts the head) and
 * looking out through the detected iris. On the photo where this was seen (p01-a: 135 and 118 crossing
 * triangle pairs on template 1.6) and on a made-up face whose irises sit far off the sockets' centres.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fitHead, type FitSource, type FittedHead } from '../../../src/geometry/fit/fit-head.ts';
import { countIntersectionsBetween } from '../../../src/geometry/mesh/checks.ts';
import { analyseFace } from '../../../src/pipeline/face/analyse.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';
import type { TemplateView } from '../../../src/pipeline/template-view.ts';

const faces = new URL('../../fixtures/faces/', import.meta.url);
const EYES = [['eyeLeft', 468], ['eyeRight', 473]] as const;

const source = (tpl: TemplateView): FitSource => ({
  head: tpl.meshes[0].geometry.positions,
  indices: tpl.meshes[0].geometry.indices,
  parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions])),
  eyes: tpl.eyes,
  openingPairs: tpl.openingPairs,
});

/** The eyeball vertex at the middle of the iris: the front pole, at the centre of the front UV disc. */
function irisVertex(tpl: TemplateView, mesh: string): number {
  const uvs = tpl.meshes.find((m) => m.name === mesh)!.geometry.uvs;
  let best = 0;
  for (let v = 0; v < uvs.length / 2; v++) {
    if (Math.hypot(uvs[2 * v] - 0.5, uvs[2 * v + 1] - 0.5) < Math.hypot(uvs[2 * best] - 0.5, uvs[2 * best + 1] - 0.5)) best = v;
  }
  return best;
}

function assertSeated(tpl: TemplateView, fitted: FittedHead, landmarks: Float32Array, label: string): void {
  const head = { positions: fitted.head, indices: tpl.meshes[0].geometry.indices };
  for (const [mesh, iris] of EYES) {
    const eye = { positions: fitted.parts[mesh], indices: tpl.meshes.find((m) => m.name === mesh)!.geometry.indices };
    assert.equal(countIntersectionsBetween(head, eye), 0, `${label} ${mesh}: triangles cutting the head`);
    const pole = 3 * irisVertex(tpl, mesh);
    const off = Math.hypot(eye.positions[pole] - landmarks[3 * iris], eye.positions[pole + 1] - landmarks[3 * iris + 1]);
    assert.ok(off < 0.02, `${label} ${mesh}: iris centre ${off.toFixed(3)} cm off the detected one`);
    // Seated, not shrunk away: the eyeball keeps most of its size.
    const rest = tpl.eyes[mesh].radius * fitted.global.scale;
    assert.ok(fitted.eyes[mesh].radius > 0.7 * rest && fitted.eyes[mesh].radius <= rest, `${label} ${mesh}: radius ${fitted.eyes[mesh].radius} of ${rest}`);
  }
}

for (const version of ['1.6', '2.0'] as const) {
  test(`p01-a, template ${version}: the fitted eyeballs stay inside the lids and sockets, behind the irises`, async () => {
    const tpl = loadTemplateView(version);
    const analysis = await analyseFace(new Uint8Array(readFileSync(new URL('p01-a.jpg', faces))), tpl.meshes[0].geometry.positions.subarray(0, 468 * 3));
    assertSeated(tpl, fitHead(source(tpl), { landmarks: analysis.headLandmarks }), analysis.headLandmarks, 'p01-a');
  });
}

/** Template landmarks (the template's own face, irises in front of its eyeballs), irises moved by (dx, dy). */
function templateLandmarks(tpl: TemplateView, dx: number, dy: number): Float32Array {
  const lm = new Float32Array(478 * 3);
  lm.set(tpl.meshes[0].geometry.positions.subarray(0, 468 * 3));
  for (const [mesh, iris] of EYES) {
    const { center, radius } = tpl.eyes[mesh];
    const side = Math.sign(center[0]);
    for (let k = 0; k < 5; k++) lm.set([center[0] + side * dx, center[1] + dy, center[2] + radius], 3 * (iris + k));
  }
  return lm;
}

test('on the template itself the eyeballs stay where they are', () => {
  const tpl = loadTemplateView('1.6');
  const fitted = fitHead(source(tpl), { landmarks: templateLandmarks(tpl, 0, 0) });
  for (const [mesh] of EYES) {
    const rest = tpl.meshes.find((m) => m.name === mesh)!.geometry.positions;
    const moved = fitted.parts[mesh];
    let worst = 0;
    for (let i = 0; i < rest.length; i++) worst = Math.max(worst, Math.abs(moved[i] - rest[i]));
    assert.ok(worst < 1e-4, `${mesh} moved by ${worst} cm`);
  }
});

test('irises far off the sockets\' centres (4 mm outwards and up) turn the eyeballs instead of pushing them through the lids', () => {
  const tpl = loadTemplateView('1.6');
  const landmarks = templateLandmarks(tpl, 0.4, 0.4);
  const fitted = fitHead(source(tpl), { landmarks });
  assertSeated(tpl, fitted, landmarks, 'offset irises');
  for (const [mesh] of EYES) {
    // The centre stays near the socket's: the eyeball turned, it was not moved the whole way.
    const shift = Math.hypot(fitted.eyes[mesh].center[0] - tpl.eyes[mesh].center[0], fitted.eyes[mesh].center[1] - tpl.eyes[mesh].center[1]);
    assert.ok(shift < 0.2, `${mesh}: centre moved ${shift.toFixed(3)} cm`);
  }
});
