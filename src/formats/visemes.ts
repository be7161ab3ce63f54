import type { AvatarModel } from '../model/avatar.ts';

/**
 * Blendshape for each viseme value of the speech marks (Amazon Polly's set, as the speech
 * service writes them). Blendshapes follow the 15-viseme naming `viseme_<name>` used by
 * realtime avatars; Polly's 17 values fold onto it. `sil` is the neutral mouth.
 */
export const VISEME_BLENDSHAPES: Readonly<Record<string, string>> = {
  sil: 'viseme_sil', p: 'viseme_PP', f: 'viseme_FF', T: 'viseme_TH', t: 'viseme_DD', k: 'viseme_kk',
  S: 'viseme_CH', s: 'viseme_SS', r: 'viseme_RR', a: 'viseme_aa', '@': 'viseme_aa', e: 'viseme_E',
  E: 'viseme_E', i: 'viseme_ih', o: 'viseme_oh', O: 'viseme_oh', u: 'viseme_ou',
};

/** Speech-mark viseme value to blendshape name, for the blendshapes this avatar has; empty without visemes. */
export function visemeMapping(model: AvatarModel): Record<string, string> {
  const names = new Set(model.meshes.flatMap((m) => m.morphs.map((t) => t.name)));
  return Object.fromEntries(Object.entries(VISEME_BLENDSHAPES).filter(([, shape]) => names.has(shape)));
}
