import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDeformer } from '../../../src/geometry/deform/index.ts';
import { TriangleBvh, emptyClosestPoint } from '../../../src/geometry/spatial/triangle-bvh.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';
import { surfaceSamples, warpedHead } from '../../fixtures/heads.ts';

// The real head of template 2.0 (open at the neck, with ears, mouth bag and eye sockets), warped smoothly.
const { head, regions } = buildTemplate('2.0');
const avatar = warpedHead(head.positions);
const deformer = createDeformer({ template: head.positions, avatar, indices: head.indices });

test('template 2.0: its own vertices and random surface points land on the avatar', () => {
  const out = deformer.deform(head.positions);
  let worst = 0;
  for (let i = 0; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i] - avatar[i]));
  assert.ok(worst < 1e-4, `worst ${worst} cm`);

  const samples = 3000;
  const { template: onTemplate, avatar: onAvatar } = surfaceSamples(head.positions, avatar, head.indices, samples, 3);
  const moved = deformer.deform(onTemplate);
  for (let k = 0; k < samples; k++) {
    const error = Math.hypot(moved[3 * k] - onAvatar[3 * k], moved[3 * k + 1] - onAvatar[3 * k + 1], moved[3 * k + 2] - onAvatar[3 * k + 2]);
    assert.ok(error < 0.01, `sample ${k}: ${error} cm`);
  }
});

test('template 2.0: a cap 1 cm over the cranium stays outside the avatar, about 1 cm away', () => {
  const avatarBvh = TriangleBvh.build(avatar, head.indices);
  const top = Math.max(...regions.skin.map((i) => head.positions[3 * i + 1]));
  const cap = regions.skin.filter((i) => head.positions[3 * i + 1] > top - 8);
  assert.ok(cap.length > 500);
  const points = new Float32Array(3 * cap.length);
  cap.forEach((i, k) => {
    for (let d = 0; d < 3; d++) points[3 * k + d] = head.positions[3 * i + d] + head.normals[3 * i + d];
  });
  const out = deformer.deform(points);
  const hit = emptyClosestPoint();
  for (let k = 0; k < cap.length; k++) {
    avatarBvh.closestPoint(out[3 * k], out[3 * k + 1], out[3 * k + 2], hit);
    assert.equal(hit.inside, false, `cap vertex ${k} sank into the avatar`);
    assert.ok(hit.distance > 0.7 && hit.distance < 1.3, `cap vertex ${k} is ${hit.distance} cm away`);
  }
});
