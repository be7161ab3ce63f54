import type { Platform } from '../model/product.ts';

/**
 * Where files live in the file store. Everything of one avatar is under `avatarDir(key)` (in the folder
 * AVATARS, named by its key); everything of one speech request under `speechDir(id)` (in SPEECH).
 */
export const AVATARS = 'avatars';
export const SPEECH = 'speech';
export const avatarDir = (key: string) => `${AVATARS}/${key}`;
export const inputPath = (key: string) => `${avatarDir(key)}/input`;
export const modelPath = (key: string) => `${avatarDir(key)}/model.bin`;
export const previewPath = (key: string, type: 'jpg' | 'png') => `${avatarDir(key)}/preview.${type}`;
export const packagePath = (key: string, platform: Platform) => `${avatarDir(key)}/packages/${platform}.zip`;
export const resultInputPath = (key: string, child: string) => `${avatarDir(key)}/results/${child}/input.bin`;
export const resultPath = (key: string, child: string, kind: 'blendshapes' | 'vertexdeform') =>
  `${avatarDir(key)}/results/${child}/${kind === 'blendshapes' ? 'blendshapes.zip' : 'vertices.bin'}`;
export const speechDir = (id: string) => `${SPEECH}/${id}`;
export const speechAudioPath = (id: string, extension: string) => `${speechDir(id)}/speech.${extension}`;
export const speechMarksPath = (id: string) => `${speechDir(id)}/speech.marks`;
