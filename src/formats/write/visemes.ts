import { POLLY_VISEMES } from '../../geometry/expressions/visemes.ts';
import type { AvatarModel } from '../../model/avatar.ts';

/**
 * For each viseme value of the speech marks (Amazon Polly's set, as the speech service writes them),
 * the Oculus viseme of the same mouth: used when an avatar lacks the value's own `polly_*` shape.
 */
export const OCULUS_FOR_POLLY: Readonly<Record<string, string>> = {
  sil: 'viseme_sil', p: 'viseme_PP', f: 'viseme_FF', T: 'viseme_TH', t: 'viseme_DD', k: 'viseme_kk',
  S: 'viseme_CH', s: 'viseme_SS', r: 'viseme_RR', a: 'viseme_aa', '@': 'viseme_aa', e: 'viseme_E',
  E: 'viseme_E', i: 'viseme_ih', o: 'viseme_oh', O: 'viseme_oh', u: 'viseme_ou',
};

/**
 * Speech-mark viseme value to the blendshape that shows it on this avatar: the value's own shape
 * (docs/EXPRESSIONS.md), else the Oculus viseme of the same mouth; empty without viseme shapes.
 */
export function visemeMapping(model: AvatarModel): Record<string, string> {
  const names = new Set(model.meshes.flatMap((m) => m.morphs.map((t) => t.name)));
  return Object.fromEntries(
    Object.entries(OCULUS_FOR_POLLY).flatMap(([value, oculus]) => {
      const own = POLLY_VISEMES[value]?.name;
      const shape = own && names.has(own) ? own : names.has(oculus) ? oculus : undefined;
      return shape ? [[value, shape]] : [];
    }),
  );
}
