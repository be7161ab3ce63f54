/** Amazon Polly's viseme values. */
export const VISEMES = ['sil', 'p', 't', 'S', 'T', 'f', 'k', 'i', 'r', 's', 'u', '@', 'a', 'e', 'E', 'o', 'O'] as const;
export type Viseme = (typeof VISEMES)[number];

/** Flite's US English phone set (CMU ARPAbet, lower case) to visemes; `pau` is silence. */
const ARPABET: Record<string, Viseme> = {
  pau: 'sil', 'h#': 'sil', brth: 'sil',
  p: 'p', b: 'p', m: 'p',
  f: 'f', v: 'f',
  th: 'T', dh: 'T',
  t: 't', d: 't', n: 't', l: 't', dx: 't', el: 't', en: 't', nx: 't',
  s: 's', z: 's',
  sh: 'S', zh: 'S', ch: 'S', jh: 'S',
  k: 'k', g: 'k', ng: 'k', hh: 'k',
  r: 'r', er: 'r', axr: 'r',
  iy: 'i', ih: 'i', y: 'i', ix: 'i',
  uw: 'u', uh: 'u', w: 'u',
  ax: '@', ah: '@',
  aa: 'a', ae: 'a', ay: 'a', aw: 'a',
  ey: 'e',
  eh: 'E',
  ow: 'o',
  ao: 'O', oy: 'O',
};

export function arpabetViseme(phone: string): Viseme {
  return ARPABET[phone] ?? '@';
}

/** IPA symbols (as eSpeak-NG reports phonemes) to visemes, matched on the phoneme's first base symbol. */
const IPA: Record<string, Viseme> = {
  p: 'p', b: 'p', m: 'p', ɱ: 'f', ʙ: 'p', ɓ: 'p',
  f: 'f', v: 'f', ɸ: 'f', β: 'f', ʋ: 'f',
  θ: 'T', ð: 'T',
  t: 't', d: 't', n: 't', l: 't', ɾ: 't', ɗ: 't', ʈ: 't', ɖ: 't', ɳ: 't', ɭ: 't', ɬ: 't', ɮ: 't', ɫ: 't', ɲ: 't', ʎ: 't', c: 'k', ɟ: 'k',
  s: 's', z: 's', ʦ: 's', ʣ: 's', ɕ: 'S', ʑ: 'S',
  ʃ: 'S', ʒ: 'S', ʧ: 'S', ʤ: 'S', ʂ: 'S', ʐ: 'S',
  k: 'k', g: 'k', ɡ: 'k', ŋ: 'k', x: 'k', ɣ: 'k', q: 'k', ɢ: 'k', h: 'k', ɦ: 'k', χ: 'k', ʁ: 'r', ħ: 'k', ʔ: 'k', ɴ: 'k',
  r: 'r', ɹ: 'r', ɻ: 'r', ʀ: 'r', ɚ: 'r', ɝ: 'r', ɽ: 'r',
  i: 'i', ɪ: 'i', j: 'i', y: 'u', ʏ: 'u', ɨ: 'i', ᵻ: 'i',
  u: 'u', ʊ: 'u', w: 'u', ʉ: 'u', ɯ: 'u', ɰ: 'u', ɥ: 'u',
  ə: '@', ʌ: '@', ɐ: '@', ɜ: '@', ɘ: '@', ɵ: '@',
  a: 'a', æ: 'a', ɑ: 'a', ɶ: 'a',
  e: 'e', ø: 'e',
  ɛ: 'E', œ: 'E',
  o: 'o',
  ɔ: 'O', ɒ: 'O',
};

/** Stress, length, tone and syllable marks carry no mouth shape. */
const IPA_MODIFIERS = /[ˈˌːˑ̯̩̃̊ʰʲʷˠˤ.‿\u0300-\u036f\d]/gu;

export function ipaViseme(phoneme: string): Viseme {
  const base = [...phoneme.replace(IPA_MODIFIERS, '')];
  if (base.length === 0) return 'sil';
  return IPA[base[0]] ?? (/[aeiouyæøœɐ-ʊ]/u.test(base[0]) ? '@' : 't');
}
