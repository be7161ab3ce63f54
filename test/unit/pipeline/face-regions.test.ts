import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureTeeth } from '../../../src/pipeline/face/face-regions.ts';

/** The inner lip contour: 20 points on an ellipse of these radii about (50, 50). */
function innerLips(rx: number, ry: number): [number, number][] {
  return Array.from({ length: 20 }, (_, k) => {
    const a = (2 * Math.PI * k) / 20;
    return [50 + rx * Math.cos(a), 50 + ry * Math.sin(a)];
  });
}

/** Skin everywhere, a dark red mouth inside the contour with an upper row of pale teeth. */
function openMouth(): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(100 * 100 * 3);
  for (let y = 0; y < 100; y++) {
    for (let x = 0; x < 100; x++) {
      const teeth = y >= 40 && y < 47;
      data.set(teeth ? [235, 217, 203] : Math.hypot((x - 50) / 20, (y - 50) / 12) < 1 ? [120, 40, 45] : [205, 160, 135], (y * 100 + x) * 3);
    }
  }
  return { width: 100, height: 100, data };
}

test('the teeth are the bright part of the open mouth, not its dark inside or the skin around it', () => {
  const teeth = measureTeeth(openMouth(), innerLips(20, 12));
  assert.ok(teeth, 'an open mouth is measured');
  assert.deepEqual(teeth.colour, [235, 217, 203]);
  assert.ok(teeth.pixels > 100, `pixels ${teeth.pixels}`);
});

test('a closed mouth has no teeth to measure', () => {
  assert.equal(measureTeeth(openMouth(), innerLips(20, 0.3)), undefined);
});
