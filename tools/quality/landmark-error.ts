/**
 * Landmark error of an avatar against its photo: the mean distance between the photo's 468 face landmarks
 * and the landmarks detected on a render of the avatar made with the photo's estimated camera, divided by
 * the distance between the eye centres (iris centres) in the photo.
 */
import { FACE_POINTS, IRIS_MINUS_X, IRIS_PLUS_X } from '../../src/pipeline/face/pose.ts';

export function normalisedLandmarkError(photo: Float32Array, render: Float32Array): number {
  const eyes = Math.hypot(photo[IRIS_PLUS_X * 3] - photo[IRIS_MINUS_X * 3], photo[IRIS_PLUS_X * 3 + 1] - photo[IRIS_MINUS_X * 3 + 1]);
  let sum = 0;
  for (let i = 0; i < FACE_POINTS; i++) sum += Math.hypot(photo[i * 3] - render[i * 3], photo[i * 3 + 1] - render[i * 3 + 1]);
  return sum / FACE_POINTS / eyes;
}
