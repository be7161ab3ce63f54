/** The canonical face mesh of MediaPipe: same vertex numbering as the detected landmarks. */
export interface CanonicalFace {
  /** 468 x 3, centimetres, Y up, face along +Z. */
  positions: Float32Array;
  /** 468 x 2, v up. */
  uvs: Float32Array;
  /** 898 triangles, counter-clockwise from the front. */
  indices: Uint32Array;
}

export const FACE_VERTEX_COUNT = 468;
