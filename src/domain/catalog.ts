/** The vocabulary of the spec: input types, platforms, templates, features, and what an account may be granted. */
export const INPUT_TYPES = ['photo', 'lofimesh_texture', 'hifimesh_texture_photo'] as const;
export const PLATFORMS = ['maya', 'webviewer', 'unity'] as const;
export const PLATFORM_ALIASES: Record<string, (typeof PLATFORMS)[number]> = { zip: 'maya', unityzip: 'unity' };
export const TEMPLATES = ['1.6', '2.0'] as const;
export const AVATAR_FEATURES = ['basic', 'expressions', 'visemes'] as const;
/** Everything an account can be allowed: the input types, the creation features and the on-demand features. */
export const ACCOUNT_FEATURES = [...INPUT_TYPES, ...AVATAR_FEATURES, 'blendshapes', 'vertexdeform', 'tts'] as const;

/**
 * What an avatar is made with when the user chooses nothing: the portal's form starts from it and the `avatar`
 * command sends it. The web viewer and every feature, so that a new avatar can be looked at, animated, made to
 * speak and exported as blendshapes; maya first, since a download without a type takes the first platform.
 * (The interface's own default for a New without `target_platform` stays maya alone.)
 */
export const NEW_AVATAR_DEFAULTS = {
  platforms: ['maya', 'webviewer'],
  template: '2.0',
  features: ['basic', 'expressions', 'visemes'],
} as const satisfies { platforms: readonly (typeof PLATFORMS)[number][]; template: (typeof TEMPLATES)[number]; features: readonly (typeof AVATAR_FEATURES)[number][] };

export type InputType = (typeof INPUT_TYPES)[number];
export type Platform = (typeof PLATFORMS)[number];

export const has = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);
