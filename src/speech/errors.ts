/** Codes from the interface's 400 table that the speech library reports (see docs/SPEECH.md). */
export const SpeechErrorCode = {
  /** Missing, empty, too long or wrongly typed request field. */
  fieldValidation: 10001,
  /** SSML that is not well-formed XML, not rooted at <speak>, or with an invalid attribute value. */
  malformedParameters: 40110,
  /** Unknown voice, unknown or empty output mode. */
  invalidOption: 51300,
} as const;

export type SpeechErrorCodeValue = (typeof SpeechErrorCode)[keyof typeof SpeechErrorCode];

/** A client error of a speech request; always HTTP 400. */
export class SpeechError extends Error {
  readonly httpStatus = 400 as const;
  constructor(
    readonly code: SpeechErrorCodeValue,
    message: string,
  ) {
    super(message);
    this.name = 'SpeechError';
  }
}
