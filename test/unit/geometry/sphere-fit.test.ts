import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitSphere } from '../../../src/geometry/mesh/sphere-fit.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';

test('the sphere through points on a sphere is that sphere, wherever it lies and whatever its size', () => {
  const points: number[] = [];
  for (let i = 0; i < 40; i++) {
    const polar = Math.acos(1 - (2 * (i + 0.5)) / 40), azimuth = i * 2.4;
    points.push(-3 + 0.7 * Math.sin(polar) * Math.cos(azimuth), 12 + 0.7 * Math.sin(polar) * Math.sin(azimuth), 5 + 0.7 * Math.cos(polar));
  }
  const { center, radius } = fitSphere(points);
  [-3, 12, 5].forEach((c, k) => assert.ok(Math.abs(center[k] - c) < 1e-9, `centre ${k}: ${center[k]}`));
  assert.ok(Math.abs(radius - 0.7) < 1e-9);
});

test("an eyeball mesh gives its template's centre and radius", () => {
  const tpl = buildTemplate('1.6');
  const { center, radius } = fitSphere(tpl.parts.eyeRight.positions);
  tpl.eyes.right.centre.forEach((c, k) => assert.ok(Math.abs(center[k] - c) < 1e-6));
  assert.ok(Math.abs(radius - tpl.eyes.right.radius) < 1e-6);
});
