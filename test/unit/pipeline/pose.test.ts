import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimatePose, landmarksInHeadFrame } from '../../../src/pipeline/face/pose.ts';
import { fitSimilarity, quatToMat3, applyMat3 } from '../../../src/geometry/fit/similarity.ts';

/** A face-like point cloud (cm): an ellipsoidal cap with a nose, 468 points. */
function faceCloud(): Float32Array {
  const out = new Float32Array(468 * 3);
  for (let i = 0; i < 468; i++) {
    const u = ((i * 0.618034) % 1) * 2 - 1;
    const v = ((i * 0.414214) % 1) * 2 - 1;
    const nose = Math.exp(-(u * u + v * v) * 12) * 2.5;
    out.set([u * 7, v * 9, Math.sqrt(Math.max(0, 1 - u * u * 0.8 - v * v * 0.5)) * 6 + nose], i * 3);
  }
  return out;
}

/** Projects head-frame points like the landmark model reports them: pixels (y down) and a depth in its own unit. */
function project(points: Float32Array, yawDeg: number, scale: number, depthPerPixel: number): Float32Array {
  const h = (yawDeg * Math.PI) / 360;
  const r = quatToMat3(Math.cos(h), 0, Math.sin(h), 0);
  const out = new Float32Array(points.length);
  for (let i = 0; i < points.length / 3; i++) {
    const p = applyMat3(r, points[i * 3], points[i * 3 + 1], points[i * 3 + 2]);
    out.set([400 + scale * p[0], 300 - scale * p[1], -scale * p[2] * depthPerPixel], i * 3);
  }
  return out;
}

test('similarity fit recovers a known scale and rotation', () => {
  const a = faceCloud();
  const q = [Math.cos(0.3), 0.2, Math.sin(0.3), -0.1];
  const n = Math.hypot(...q);
  const r = quatToMat3(q[0] / n, q[1] / n, q[2] / n, q[3] / n);
  const b = new Float32Array(a.length);
  for (let i = 0; i < a.length / 3; i++) {
    const p = applyMat3(r, a[i * 3], a[i * 3 + 1], a[i * 3 + 2]);
    b.set([2 * p[0] + 1, 2 * p[1] - 3, 2 * p[2] + 5], i * 3);
  }
  const fit = fitSimilarity(a, b);
  assert.ok(Math.abs(fit.scale - 2) < 1e-6);
  assert.deepEqual(fit.translation.map((t) => Math.round(t * 1e6) / 1e6), [1, -3, 5]);
});

test('pose estimation recovers yaw, scale and the depth unit of the landmark model', () => {
  const canon = faceCloud();
  for (const yaw of [-25, 0, 20]) {
    const pose = estimatePose(project(canon, yaw, 20, 0.3), canon);
    assert.ok(Math.abs(pose.yaw - yaw) < 1, `yaw ${pose.yaw} vs ${yaw}`);
    assert.ok(Math.abs(pose.pitch) < 1 && Math.abs(pose.roll) < 1);
    assert.ok(Math.abs(pose.scale - 20) < 0.2, `scale ${pose.scale}`);
    assert.ok(Math.abs(pose.depthPerPixel - 0.3) < 0.02, `depth unit ${pose.depthPerPixel}`);
  }
});

test('landmarks map back to the head frame in centimetres', () => {
  const canon = faceCloud();
  const lm = project(canon, 15, 25, 0.4);
  const pose = estimatePose(lm, canon);
  const head = landmarksInHeadFrame(lm, pose, canon, 1 / 25);
  let err = 0;
  for (let i = 0; i < head.length; i++) err = Math.max(err, Math.abs(head[i] - canon[i]));
  assert.ok(err < 0.05, `max error ${err} cm`);
});
