import type { Vec3 } from '../../model/avatar.ts';

/**
 * Lights fixed to the camera, so that any view reads the same way. Directions point from the
 * surface towards the light in camera space (x right, y down, z forward: -z is towards the viewer).
 */
export interface LightRig {
  /** Added to every lit pixel, linear; scaled by the occlusion map where there is one. */
  ambient: number;
  lights: { direction: Vec3; intensity: number }[];
  /** Strength of the silhouette rim, which separates the shape from the background. */
  rim: number;
  /** Scales the lights' highlights (default 1). */
  specular?: number;
}

/** Key from the upper left front, a weaker fill from the right, a soft rim. */
export const studioLight: LightRig = {
  ambient: 0.22,
  lights: [
    { direction: [-0.45, -0.55, -0.7], intensity: 0.85 },
    { direction: [0.7, -0.1, -0.7], intensity: 0.3 },
  ],
  rim: 0.25,
};
