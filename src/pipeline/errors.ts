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

type PipelineCode = (typeof PipelineCodes)[keyof typeof PipelineCodes];

/**
 * What a code tells the client, after the code, in the `msg` of a failed avatar's status: the same
 * for every avatar with that code (the particulars of one failure, such as the measured angle, are logged).
 */
const TEXTS: Record<PipelineCode, string> = {
  10000: 'error in pipeline: an internal failure persisted through three attempts',
  10001: 'error in pipeline: no face was found in the photo',
  10002: 'error in pipeline: the face is too small in the photo; use a closer or larger photo',
  10003: 'error in pipeline: the head is turned or tilted too far; use a photo facing the camera',
  10004: 'error in pipeline: the photo cannot be decoded as an image',
  10005: 'error in pipeline: the face is cut by the border of the photo',
  10010: 'error in pipeline: the head mesh or its texture cannot be read',
  10011: 'error in pipeline: no face was found on the head mesh',
  10012: 'error in pipeline: the head mesh has too many triangles',
  10020: 'error in pipeline: this input type is not supported by the pipeline',
  10090: 'error in pipeline: the results did not fit on the service storage; the points were refunded',
};

export function pipelineCodeText(code: number): string {
  return TEXTS[code as PipelineCode] ?? `error in pipeline with code ${code}`;
}
