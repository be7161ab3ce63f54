/**
 * What the pipeline refuses, in numbers. The checks (face/analyse.ts, mesh/scan.ts) and the texts that
 * tell a client what to do instead (errors.ts) both read them here; docs/PIPELINE.md lists them.
 */
export const PHOTO_LIMITS = {
  /** Minimum inter-pupil distance in pixels of the original photo. */
  minEyeDistancePx: 40,
  maxYawDeg: 30,
  maxPitchDeg: 30,
} as const;

/** Larger scans are refused (10012): their closest-point structures would not fit a worker's memory budget. */
export const MAX_SCAN_TRIANGLES = 2_000_000;
