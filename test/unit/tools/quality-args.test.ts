import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../../scripts/quality.ts', import.meta.url));
const quality = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8' });

test('quality: --reencoded takes a JPEG quality from 1 to 100, and a wrong one is a usage error before any photo is read', () => {
  for (const bad of ['0', '101', '9.5', 'high']) {
    const r = quality('--reencoded', bad, 'missing.jpg');
    assert.equal(r.status, 2, `--reencoded ${bad}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`--reencoded takes a JPEG quality from 1 to 100, not ${bad.replace('.', '\\.')}`));
  }
  const missing = quality('--reencoded');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /not undefined/);
});

test('quality: the usage names --reencoded', () => {
  const r = quality('--help');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /\[--reencoded Q\]/);
});
