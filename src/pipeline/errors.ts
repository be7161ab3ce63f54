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
