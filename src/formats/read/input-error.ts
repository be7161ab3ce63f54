/**
 * A refusal of an uploaded input file, with the spec's 400 code. Raised by the pure format readers
 * (archives, OBJ); the layer that answers the client turns it into its own error type.
 */
export class InputError extends Error {
  constructor(
    readonly code: InputCode,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

export const InputCodes = {
  /** An expected texture or photo is missing from the archive. */
  missingTexture: 30002,
  /** The archive has no `mesh.obj`. */
  missingMesh: 30003,
  /** The archive is empty, corrupt, encrypted, over the limits (a zip bomb) or of an unsupported variant. */
  badArchive: 30005,
  /** The file is neither a zip nor a RAR archive. */
  notArchive: 30006,
  /** A file is not in the expected format at all (e.g. no OBJ vertices or faces). */
  badFormat: 30012,
  /** A file is in the expected format but broken (e.g. an OBJ face index out of range). */
  corruptFile: 30013,
  /** An archive entry name is absolute, climbs out with `..`, is a link, or is otherwise odd. */
  badFileName: 40101,
} as const;

export type InputCode = (typeof InputCodes)[keyof typeof InputCodes];
