import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitHead, fitHeadAndPosed, type FitSource } from '../../../src/geometry/fit/fit-head.ts';
import { loadTemplateView } from '../../../src/pipeline/template-source.ts';

test('the neutral and the posed fit made together are each the fit fitHead makes alone, bit for bit', () => {
  const tpl = loadTemplateView('1.6');
  const src: FitSource = {
    head: tpl.meshes[0].geometry.positions,
    indices: tpl.meshes[0].geometry.indices,
    parts: Object.fromEntries(tpl.meshes.slice(1).map((m) => [m.name, m.geometry.positions])),
    eyes: tpl.eyes,
    openingPairs: tpl.openingPairs,
    ears: tpl.ears,
  };
  // Two sets of landmarks: the template's own, moved two different smooth ways (a wider face; a turned, open-mouthed one).
  const rest = src.head.slice(0, 478 * 3);
  const neutral = rest.map((v, i) => (i % 3 === 0 ? v * 1.08 : v + 0.1 * Math.sin(i)));
  const posed = rest.map((v, i) => (i % 3 === 1 ? v * 0.95 - 0.2 : v + 0.05 * Math.cos(i)) + (i % 3 === 2 ? 0.03 * rest[i - 2] : 0));
  const [a, b] = fitHeadAndPosed(src, { landmarks: neutral }, { landmarks: posed });
  const alone = fitHead(src, { landmarks: neutral });
  const posedAlone = fitHead({ ...src, parts: {}, eyes: {} }, { landmarks: posed });
  assert.deepEqual(a.head, alone.head);
  assert.deepEqual(a.parts, alone.parts);
  assert.deepEqual(a.eyes, alone.eyes);
  assert.deepEqual(a.global, alone.global);
  assert.deepEqual(b.head, posedAlone.head);
  assert.deepEqual(b.global, posedAlone.global);
  assert.deepEqual(Object.keys(b.parts), []);
  assert.notDeepEqual(a.head, b.head);
});
