import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { scanRepository } from '../../helpers/outside-reads.ts';

const root = path.resolve(import.meta.dirname, '../../..');

test('nothing under src, tools, test, bench, scripts or web reads a path outside the repository, and no doc sends readers there', () => {
  const found = scanRepository(root);
  assert.deepEqual(
    found.map((f) => `${f.file}:${f.line} (${f.form}) ${f.text} -> ${f.resolved}`),
    [],
    'a clone with nothing beside it must have all it needs: move what these reach for into the repository',
  );
});
