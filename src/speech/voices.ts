import { ESPEAK_VOICES } from './espeak-voices.ts';
import { SpeechError, SpeechErrorCode } from './errors.ts';

export type Gender = 'female' | 'male';
export type EngineName = 'flite' | 'espeak';

export interface VoiceInfo {
  /** Name a client sends as `voice`. */
  name: string;
  /** BCP-47 language tag. */
  language: string;
  gender: Gender;
  engine: EngineName;
  /** Engine-specific voice id: a flite voice name or an eSpeak-NG voice name with variant. */
  engineVoice: string;
}

/** The offline voice pocketsphinx understands best (word error rate on Harvard sentences: rms 21.7 %, awb 28.3 %, kal16 30.8 %, slt 32.9 %; docs/SPEECH.md). */
export const DEFAULT_VOICE = 'rms';

const FLITE_VOICES: VoiceInfo[] = [
  { name: 'slt', language: 'en-US', gender: 'female', engine: 'flite', engineVoice: 'slt' },
  { name: 'rms', language: 'en-US', gender: 'male', engine: 'flite', engineVoice: 'rms' },
  { name: 'awb', language: 'en-GB', gender: 'male', engine: 'flite', engineVoice: 'awb' },
  { name: 'kal16', language: 'en-US', gender: 'male', engine: 'flite', engineVoice: 'kal16' },
  { name: 'kal', language: 'en-US', gender: 'male', engine: 'flite', engineVoice: 'kal' },
];

/** `en-us` -> `en-US`, `sr-latn` -> `sr-Latn`. */
function bcp47(tag: string): string {
  return tag
    .split('-')
    .map((part, i) => (i === 0 ? part : part.length === 2 ? part.toUpperCase() : part.length === 4 ? part[0].toUpperCase() + part.slice(1) : part))
    .join('-');
}

/** eSpeak-NG's base voices sound male; its `+f3` variant gives each language a female voice. */
const ESPEAK_VOICE_LIST: VoiceInfo[] = ESPEAK_VOICES.flatMap(([identifier, , language]) => {
  const name = `espeak-${identifier.split('/').pop()}`;
  const tag = bcp47(language);
  return [
    { name, language: tag, gender: 'male' as const, engine: 'espeak' as const, engineVoice: identifier },
    { name: `${name}-f`, language: tag, gender: 'female' as const, engine: 'espeak' as const, engineVoice: `${identifier}+f3` },
  ];
});

export const VOICES: readonly VoiceInfo[] = [...FLITE_VOICES, ...ESPEAK_VOICE_LIST];

/** Amazon Polly voice names (language, gender) clients send today; each maps to a project voice of the same language and gender. */
export const CLOUD_VOICES: Readonly<Record<string, readonly [string, Gender]>> = {
  Joanna: ['en-US', 'female'], Salli: ['en-US', 'female'], Kendra: ['en-US', 'female'], Kimberly: ['en-US', 'female'],
  Ivy: ['en-US', 'female'], Ruth: ['en-US', 'female'], Danielle: ['en-US', 'female'],
  Matthew: ['en-US', 'male'], Joey: ['en-US', 'male'], Justin: ['en-US', 'male'], Kevin: ['en-US', 'male'],
  Stephen: ['en-US', 'male'], Gregory: ['en-US', 'male'],
  Amy: ['en-GB', 'female'], Emma: ['en-GB', 'female'], Brian: ['en-GB', 'male'], Arthur: ['en-GB', 'male'],
  Geraint: ['en-GB', 'male'], Nicole: ['en-AU', 'female'], Olivia: ['en-AU', 'female'], Russell: ['en-AU', 'male'],
  Raveena: ['en-IN', 'female'], Aditi: ['en-IN', 'female'], Aria: ['en-NZ', 'female'], Ayanda: ['en-ZA', 'female'],
  Celine: ['fr-FR', 'female'], Léa: ['fr-FR', 'female'], Lea: ['fr-FR', 'female'], Mathieu: ['fr-FR', 'male'],
  Chantal: ['fr-CA', 'female'], Gabrielle: ['fr-CA', 'female'],
  Hans: ['de-DE', 'male'], Daniel: ['de-DE', 'male'], Marlene: ['de-DE', 'female'], Vicki: ['de-DE', 'female'],
  Conchita: ['es-ES', 'female'], Lucia: ['es-ES', 'female'], Enrique: ['es-ES', 'male'], Sergio: ['es-ES', 'male'],
  Mia: ['es-MX', 'female'], Penelope: ['es-US', 'female'], Lupe: ['es-US', 'female'], Miguel: ['es-US', 'male'],
  Giorgio: ['it-IT', 'male'], Adriano: ['it-IT', 'male'], Carla: ['it-IT', 'female'], Bianca: ['it-IT', 'female'],
  Takumi: ['ja-JP', 'male'], Mizuki: ['ja-JP', 'female'], Kazuha: ['ja-JP', 'female'], Tomoko: ['ja-JP', 'female'],
  Seoyeon: ['ko-KR', 'female'], Zhiyu: ['cmn-CN', 'female'],
  Ricardo: ['pt-BR', 'male'], Vitoria: ['pt-BR', 'female'], Camila: ['pt-BR', 'female'],
  Cristiano: ['pt-PT', 'male'], Ines: ['pt-PT', 'female'],
  Maxim: ['ru-RU', 'male'], Tatyana: ['ru-RU', 'female'],
  Ruben: ['nl-NL', 'male'], Lotte: ['nl-NL', 'female'], Laura: ['nl-NL', 'female'],
  Mads: ['da-DK', 'male'], Naja: ['da-DK', 'female'], Liv: ['nb-NO', 'female'], Astrid: ['sv-SE', 'female'],
  Jacek: ['pl-PL', 'male'], Jan: ['pl-PL', 'male'], Ewa: ['pl-PL', 'female'], Maja: ['pl-PL', 'female'],
  Filiz: ['tr-TR', 'female'], Carmen: ['ro-RO', 'female'], Gwyneth: ['cy-GB', 'female'],
  Karl: ['is-IS', 'male'], Dora: ['is-IS', 'female'], Zeina: ['ar', 'female'], Suvi: ['fi-FI', 'female'],
};

/**
 * English goes to the more intelligible flite voices whatever the accent (flite has no British female voice);
 * other languages to the eSpeak-NG voice of the language, region first, then the bare language.
 */
function projectVoiceFor(language: string, gender: Gender): VoiceInfo {
  const lower = language.toLowerCase();
  if (lower.startsWith('en')) return findVoice(lower === 'en-gb' && gender === 'male' ? 'awb' : gender === 'female' ? 'slt' : 'rms')!;
  const base = lower.split('-')[0];
  const candidates = VOICES.filter((v) => v.engine === 'espeak' && v.gender === gender);
  const voice =
    candidates.find((v) => v.language.toLowerCase() === lower) ??
    candidates.find((v) => v.language.toLowerCase() === base) ??
    candidates.find((v) => v.language.toLowerCase() === `${base}-${base}`) ??
    candidates.find((v) => v.language.toLowerCase().split('-')[0] === base);
  if (!voice) throw new Error(`no project voice for ${language}`);
  return voice;
}

function findVoice(name: string): VoiceInfo | undefined {
  const lower = name.toLowerCase();
  return VOICES.find((v) => v.name.toLowerCase() === lower);
}

const CLOUD_BY_LOWER_NAME = new Map(Object.entries(CLOUD_VOICES).map(([name, spec]) => [name.toLowerCase(), spec]));

/** Resolves a request's `voice` (project name or cloud name, any case; absent means the default voice). */
export function resolveVoice(name: string | undefined): VoiceInfo {
  if (name === undefined) return findVoice(DEFAULT_VOICE)!;
  const direct = findVoice(name);
  if (direct) return direct;
  const cloud = CLOUD_BY_LOWER_NAME.get(name.toLowerCase());
  if (cloud) return projectVoiceFor(cloud[0], cloud[1]);
  throw new SpeechError(SpeechErrorCode.invalidOption, `unknown voice "${name}"; GET /v2/speech/voices lists the voices (names are case-insensitive)`);
}

/** A voice a client may name, as listed to clients. */
export interface ListedVoice {
  name: string;
  language: string;
  gender: Gender;
}

/** Everything a client may send as `voice`: the default, the project's voices, and the cloud names with the voice each one speaks with. */
export function voiceCatalog(): { defaultVoice: string; voices: ListedVoice[]; cloudNames: (ListedVoice & { voice: string })[] } {
  return {
    defaultVoice: DEFAULT_VOICE,
    voices: VOICES.map(({ name, language, gender }) => ({ name, language, gender })),
    cloudNames: Object.entries(CLOUD_VOICES).map(([name, [language, gender]]) => ({ name, language, gender, voice: projectVoiceFor(language, gender).name })),
  };
}
