import { MAX_SCAN_TRIANGLES, PHOTO_LIMITS } from './limits.ts';

/**
 * A refusal or failure of the pipeline. `code` is in the 100xx range of the spec
 * ("error in pipeline with code xx"); the status endpoint reports it with HTTP 200.
 * The table of codes lives in docs/API.md.
 */
export class PipelineError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
    this.name = 'PipelineError';
  }
}

export const PipelineCodes = {
  internal: 10000,
  noFace: 10001,
  faceTooSmall: 10002,
  headTurned: 10003,
  imageUnreadable: 10004,
  faceCut: 10005,
  meshUnreadable: 10010,
  meshNoFace: 10011,
  meshTooLarge: 10012,
  /** The input type is accepted by the API but this pipeline cannot process it yet. */
  inputTypeUnsupported: 10020,
  /** The finished avatar's files did not fit on the service's storage (the points are refunded). */
  storageFull: 10090,
} as const;

export type PipelineCode = (typeof PipelineCodes)[keyof typeof PipelineCodes];

const L = PHOTO_LIMITS;

/**
 * What a failed avatar (or result) tells its owner, by code: what happened, then what to do. Only the code
 * is stored with the avatar, so this is the text of its status `msg`, the portal and the command line.
 */
export const PIPELINE_FAILURES: Readonly<Record<PipelineCode, string>> = {
  10000: "error in pipeline: the avatar could not be made (an internal failure, tried three times); upload it again, and if it fails again tell the service's administrator",
  10001: 'error in pipeline: no face was found in the photo; use a front-facing photo of one person, with the whole face visible and evenly lit',
  10002: `error in pipeline: the face is too small in the photo; use a photo with at least ${L.minEyeDistancePx} pixels between the pupils (taken closer, or at a higher resolution)`,
  10003: `error in pipeline: the head is turned or tilted too far; use a photo facing the camera (at most ${L.maxYawDeg}° turned, ${L.maxPitchDeg}° up or down; tilted sideways is fine)`,
  10004: 'error in pipeline: the photo cannot be decoded; save it again as JPEG or PNG and upload it again',
  10005: 'error in pipeline: the face is cut by the border of the photo; use a photo that shows the whole head with some space around it',
  10010: 'error in pipeline: the mesh archive cannot be read; check that mesh.obj is a valid OBJ and its texture a valid image',
  10011: 'error in pipeline: no face was found on the mesh; send a head scan with its face textured (front, back and sides were tried)',
  10012: `error in pipeline: the mesh has too many triangles; reduce it to at most ${MAX_SCAN_TRIANGLES} triangles`,
  10020: 'error in pipeline: this service cannot make an avatar from this input type; upload a photo',
  10090: "error in pipeline: the service's storage was full when the avatar was finished (the points were given back); try again later, or ask the service's administrator to free space",
};

/** The text of any pipeline code; a code this version does not know (from a newer worker) still reads as a failure. */
export function pipelineCodeText(code: number): string {
  return PIPELINE_FAILURES[code as PipelineCode] ?? `error in pipeline with code ${code}`;
}
