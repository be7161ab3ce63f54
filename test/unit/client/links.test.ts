import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMarks, underV2 } from '../../../src/client/index.ts';
import { suggestedFileName } from '../../../src/client/node/save.ts';
import { parseMsg } from '../../../src/client/errors.ts';

test('list URIs are requested under /v2', () => {
  assert.equal(underV2('/avatar/list/cursor/abc'), '/v2/avatar/list/cursor/abc');
  assert.equal(underV2('avatar/list/update/u'), '/v2/avatar/list/update/u');
  assert.equal(underV2('/v2/avatar/list/cursor/abc'), '/v2/avatar/list/cursor/abc');
});

test('file names from Content-Disposition are reduced to a bare name', () => {
  assert.equal(suggestedFileName('attachment; filename="k_unity.zip"'), 'k_unity.zip');
  assert.equal(suggestedFileName("attachment; filename*=UTF-8''t%C3%AAte.zip; filename=\"tete.zip\""), 'tête.zip');
  assert.equal(suggestedFileName('attachment; filename="../../etc/passwd"'), 'passwd');
  assert.equal(suggestedFileName('attachment; filename=".."'), undefined);
  assert.equal(suggestedFileName(null), undefined);
});

test('msg splits into code and text', () => {
  assert.deepEqual(parseMsg('00000 cannot authenticate'), { code: 0, text: 'cannot authenticate' });
  assert.deepEqual(parseMsg('30014 image has more than 8388608 pixels'), { code: 30014, text: 'image has more than 8388608 pixels' });
  assert.equal(parseMsg('no code here'), undefined);
});

test('speech marks are JSON lines', () => {
  const marks = parseMarks('{"time":0,"type":"viseme","value":"sil"}\n{"time":120,"type":"word","start":0,"end":5,"value":"Hello"}\n');
  assert.deepEqual(marks.map((m) => m.type), ['viseme', 'word']);
});
