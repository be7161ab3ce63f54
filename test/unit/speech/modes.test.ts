import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseModes, SpeechError } from '../../../src/speech/index.ts';

test('modes: a comma list; of several audio formats the last one is used', () => {
  assert.deepEqual(parseModes('wav'), { audio: 'wav', json: false });
  assert.deepEqual(parseModes('json'), { json: true });
  assert.deepEqual(parseModes('mp3,json'), { audio: 'mp3', json: true });
  assert.deepEqual(parseModes('json,wav,ogg,pcm'), { audio: 'pcm', json: true });
  assert.deepEqual(parseModes(' OGG , json '), { audio: 'ogg', json: true });
});

test('modes: unknown or empty values are invalid options (51300)', () => {
  for (const mode of ['flac', '', 'wav,', 'json,aac']) {
    assert.throws(() => parseModes(mode), (e: unknown) => e instanceof SpeechError && e.code === 51300 && e.httpStatus === 400, mode);
  }
});
