/**
 * The product's words, defined once: what an avatar is made from, for which platforms, on which head
 * template, with which features. Every layer (domain, api, jobs, pipeline, formats, client, cli) imports
 * them from here.
 */
export const INPUT_TYPES = ['photo', 'lofimesh_texture', 'hifimesh_texture_photo'] as const;
export const PLATFORMS = ['maya', 'webviewer', 'unity'] as const;
export const TEMPLATES = ['1.6', '2.0'] as const;
export const AVATAR_FEATURES = ['basic', 'expressions', 'visemes'] as const;

export type InputType = (typeof INPUT_TYPES)[number];
/** The input types that upload a scanned head (a zip) instead of a photo. */
export type MeshInputType = Exclude<InputType, 'photo'>;
export type Platform = (typeof PLATFORMS)[number];
export type TemplateVersion = (typeof TEMPLATES)[number];
/** What an avatar is made with; each feature adds its blendshapes. */
export type Feature = (typeof AVATAR_FEATURES)[number];
