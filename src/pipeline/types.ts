import type { AvatarModel } from '../model/avatar.ts';
import type { Feature, InputType, Platform, TemplateVersion } from '../model/product.ts';
import type { ModelFileClaims, ModelFiles } from '../formats/write/packages.ts';
import type { PreviewView } from '../geometry/render/preview.ts';

export interface PipelineInput {
  inputType: InputType;
  /** The uploaded file: a JPEG for `photo`, a zip for the mesh inputs. */
  file: Uint8Array;
  template: TemplateVersion;
  features: Feature[];
  /** The packages that will be built from the result: a pipeline may write their model files beside its own work (`modelFiles`). */
  platforms?: readonly Platform[];
}

/** Called with 0..100 as stages finish. */
export type ProgressFn = (percent: number, stage: string) => void;

export interface PipelineResult {
  model: AvatarModel;
  /** 1024x1024 front renders: the API's preview. */
  preview: { jpg: Uint8Array; png: Uint8Array };
  /** PNG renders (transparent, PACKAGE_VIEW_SIZE square) of each view, which every package carries beside the model. */
  views: Record<PreviewView, Uint8Array>;
  /** Pipeline-generated meta entries (stored with `defined`). */
  meta: Record<string, string>;
  /**
   * Data for execute/vertexdeform: the template's neutral head and this avatar's fitted head,
   * same vertex order (cm). Absent when the avatar cannot deform assets.
   */
  deformation?: { template: Float32Array; avatar: Float32Array; indices: Uint32Array };
  /** The model files of the packages of `platforms`, when the pipeline writes them (they may still be being written). */
  modelFiles?: Promise<ModelFiles>;
  /** Which of them the pipeline's writer has taken: the caller writes the others itself (see ModelFileClaims). */
  modelFileClaims?: ModelFileClaims;
  /**
   * Called once nothing reads this result any more (its files written): the memory of its model's morph deltas may
   * then be the next avatar's, and they change under it. Not called, they stay as they are.
   */
  release?(): void;
}

export interface Pipeline {
  run(input: PipelineInput, progress: ProgressFn): Promise<PipelineResult>;
}
