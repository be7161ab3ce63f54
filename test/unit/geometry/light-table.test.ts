import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lightTables } from '../../../src/geometry/render/light-table.ts';
import { studioLight } from '../../../src/geometry/render/lighting.ts';

test('light tables are made once per rig by its values (a rig copied across threads finds them), and differ between rigs', () => {
  const tables = lightTables(studioLight);
  assert.equal(lightTables(structuredClone(studioLight)), tables);
  const dimmer = { ...studioLight, lights: studioLight.lights.map((l) => ({ ...l, intensity: l.intensity / 2 })) };
  const other = lightTables(dimmer);
  assert.notEqual(other, tables);
  assert.ok(other.diffuse.some((v, i) => v !== tables.diffuse[i]));
  // A few rigs more drop the least recently used one's tables, never the one in use.
  for (let k = 1; k <= 6; k++) lightTables({ ...studioLight, ambient: k / 10 });
  assert.equal(lightTables(structuredClone(studioLight)), lightTables(studioLight));
});
