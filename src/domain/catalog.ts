/** What the service offers on top of the product's words (src/model/product.ts): aliases, grants, defaults. */
import { AVATAR_FEATURES, INPUT_TYPES, type Feature, type Platform, type TemplateVersion } from '../model/product.ts';

export const PLATFORM_ALIASES: Record<string, Platform> = { zip: 'maya', unityzip: 'unity' };
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
} as const satisfies { platforms: readonly Platform[]; template: TemplateVersion; features: readonly Feature[] };

export const has = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);
