import type { Platform } from '../model/product.ts';

/** Where an avatar's files live in the file store. Everything of one avatar is under `avatarDir(key)`. */
export const avatarDir = (key: string) => `avatars/${key}`;
export const inputPath = (key: string) => `avatars/${key}/input`;
export const modelPath = (key: string) => `avatars/${key}/model.bin`;
export const previewPath = (key: string, type: 'jpg' | 'png') => `avatars/${key}/preview.${type}`;
export const packagePath = (key: string, platform: Platform) => `avatars/${key}/packages/${platform}.zip`;
export const resultDir = (key: string, child: string) => `avatars/${key}/results/${child}`;
export const resultInputPath = (key: string, child: string) => `avatars/${key}/results/${child}/input.bin`;
export const resultPath = (key: string, child: string, kind: 'blendshapes' | 'vertexdeform') =>
  `avatars/${key}/results/${child}/${kind === 'blendshapes' ? 'blendshapes.zip' : 'vertices.bin'}`;
