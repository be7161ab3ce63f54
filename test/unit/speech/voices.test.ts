import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EspeakEngine } from '../../../src/speech/espeak.ts';
import { ESPEAK_VOICES } from '../../../src/speech/espeak-voices.ts';
import { CLOUD_VOICES, DEFAULT_VOICE, resolveVoice, SpeechError, VOICES } from '../../../src/speech/index.ts';

const primary = (tag: string) => tag.toLowerCase().split('-')[0];

test('voices: names are unique and the default is the flite English voice rms', () => {
  assert.equal(new Set(VOICES.map((v) => v.name.toLowerCase())).size, VOICES.length);
  assert.equal(resolveVoice(undefined).name, DEFAULT_VOICE);
  assert.deepEqual([resolveVoice(undefined).engine, resolveVoice(undefined).language], ['flite', 'en-US']);
  assert.equal(resolveVoice('SLT').name, 'slt');
});

test('voices: cloud voice names map to a project voice of the same language and gender', () => {
  const required = ['Joanna', 'Matthew', 'Amy', 'Brian', 'Salli', 'Joey', 'Ivy', 'Justin', 'Kendra', 'Kimberly', 'Emma', 'Russell',
    'Nicole', 'Celine', 'Mathieu', 'Hans', 'Marlene', 'Conchita', 'Enrique', 'Giorgio', 'Carla', 'Takumi', 'Mizuki'];
  for (const name of required) assert.ok(CLOUD_VOICES[name], name);
  for (const [name, [language, gender]] of Object.entries(CLOUD_VOICES)) {
    const voice = resolveVoice(name);
    assert.equal(primary(voice.language), primary(language) === 'cmn' ? 'cmn' : primary(language), name);
    assert.equal(voice.gender, gender, name);
    assert.equal(resolveVoice(name.toLowerCase()).name, voice.name, 'names are case-insensitive');
  }
  assert.equal(resolveVoice('Joanna').engine, 'flite');
  assert.equal(resolveVoice('Brian').name, 'awb');
  assert.equal(resolveVoice('Hans').engineVoice, 'gmw/de');
  assert.equal(resolveVoice('Marlene').engineVoice, 'gmw/de+f3');
  assert.equal(resolveVoice('Celine').engineVoice, 'roa/fr+f3');
});

test('voices: an unknown voice is an invalid option (51300)', () => {
  assert.throws(() => resolveVoice('Nobody'), (e: unknown) => e instanceof SpeechError && e.code === 51300);
});

test("voices: the static eSpeak-NG table is the engine's own voice list", async () => {
  const live = (await EspeakEngine.create()).listVoices().map((v) => [v.identifier, v.name, v.language]);
  assert.deepEqual(live, ESPEAK_VOICES.map((v) => [...v]));
});
