import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { PipelineCodes, pipelineCodeText } from '../../../src/pipeline/errors.ts';

test('every pipeline code has its own text, and docs/API.md shows clients that text', () => {
  const api = fs.readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
  const codes = Object.values(PipelineCodes);
  const texts = codes.map(pipelineCodeText);
  assert.equal(new Set(texts).size, codes.length, 'no two codes say the same');
  for (const [i, code] of codes.entries()) {
    assert.match(texts[i]!, /^error in pipeline: \w/, `${code}`);
    assert.ok(api.includes(`| ${code} | ${texts[i]} |`), `docs/API.md lists ${code} with "${texts[i]}"`);
  }
  assert.equal(pipelineCodeText(10077), 'error in pipeline with code 10077', 'a code without a text of its own: the interface\'s words');
});
