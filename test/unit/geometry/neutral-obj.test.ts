import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import type { Mesh } from 'three';
import { TEMPLATE_VERSIONS, neutralObj, neutralObjPath } from '../../../scripts/build-templates.ts';
import { buildTemplate } from '../../../src/pipeline/head-template.ts';

for (const version of TEMPLATE_VERSIONS) {
  test(`${version}: the published neutral.obj is what the generator writes now`, () => {
    const committed = readFileSync(neutralObjPath(version), 'utf8');
    assert.ok(committed === neutralObj(version), `assets/templates/${version}/neutral.obj is stale: run node --import tsx scripts/build-templates.ts`);
  });

  test(`${version}: neutral.obj parses into one object per part with the template's triangles and UVs`, () => {
    const group = new OBJLoader().parse(neutralObj(version));
    const tpl = buildTemplate(version);
    const expected = { head: tpl.head, ...tpl.parts };
    assert.deepEqual(group.children.map((c) => c.name), Object.keys(expected));
    for (const child of group.children as Mesh[]) {
      const mesh = expected[child.name as keyof typeof expected];
      const position = child.geometry.getAttribute('position');
      assert.equal(position.count, mesh.indices.length, child.name);
      assert.ok(child.geometry.getAttribute('uv'), `${child.name} has UVs`);
      // The first corner of the first triangle lands on its vertex.
      const v = mesh.indices[0];
      for (let k = 0; k < 3; k++) assert.ok(Math.abs(position.getComponent(0, k) - mesh.positions[3 * v + k]) < 1e-5);
    }
  });
}
