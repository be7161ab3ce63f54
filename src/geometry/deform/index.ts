/** Asset vertex deformation from the template head to one avatar's head (execute/vertexdeform). */
export { createDeformer, DEFAULT_MIN_BLEND_DISTANCE, type Deformer, type DeformerInput, type DeformerOptions } from './deformer.ts';
export type { RigidMotion } from './rigid-fit.ts';
