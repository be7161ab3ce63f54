import { pipelineCodeText } from '../pipeline/errors.ts';

/**
 * An error the client sees: `msg` is the five-digit code followed by a text, with the HTTP status
 * the spec's error tables give for that code. Every code this service emits is listed in docs/API.md.
 */
export class ServiceError extends Error {
  constructor(
    readonly code: number,
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }

  get msg(): string {
    return `${String(this.code).padStart(5, '0')} ${this.message}`;
  }
}

const bad = (code: number, message: string) => new ServiceError(code, 400, message);
const unauthorized = (code: number, message: string) => new ServiceError(code, 401, message);
const notFound = (code: number, message: string) => new ServiceError(code, 404, message);

/** Constructors for every error the service emits, so that codes are chosen in one place. */
export const errors = {
  // 401
  noAuth: () => unauthorized(10040, 'cannot authenticate: missing or malformed Authorization header'),
  authFail: () => unauthorized(10032, 'authentication fail: digest does not match'),
  replay: () => unauthorized(10032, 'authentication fail: nonce already used'),
  unknownKey: () => unauthorized(14704, 'incorrect credentials: unknown application key'),
  revokedKey: () => unauthorized(14705, 'incorrect credentials: application key revoked'),
  // 402
  notEnoughPoints: (need: number, have: number) => new ServiceError(33200, 402, `not enough points: ${need} needed, ${have} available`),
  // 404
  avatarNotFound: () => notFound(10400, 'avatar not found'),
  notInAccount: () => notFound(10501, 'avatar key not found in the account'),
  routeNotFound: (method: string, url: string) => notFound(40410, `unknown resource: ${method} ${url}`),
  assetNeverMade: (what: string) => notFound(40451, `the specified asset does not exist: ${what}`),
  // 200: the status of an avatar or result the pipeline refused or failed (its body keeps the avatar's fields)
  pipelineFailed: (code: number) => new ServiceError(code, 200, pipelineCodeText(code)),
  // 400
  invalidKey: () => bad(41111, 'invalid key'),
  validation: (what: string) => bad(10001, `field validation errors: ${what}`),
  uploadMode: (mode: string) => bad(12801, `upload mode not supported: ${mode}`),
  unknownFeature: (f: string) => bad(12803, `feature not supported: ${f}`),
  onDemandUnavailable: (what: string) => bad(12804, `on-demand feature not available: ${what}`),
  featureUnavailable: (f: string) => bad(12805, `feature not available to this account: ${f}`),
  invalidTemplate: (t: string) => bad(19100, `invalid template: ${t} (accepted: 1.6, 2.0)`),
  assetNotReady: () => bad(23544, 'asset not available yet'),
  noFile: () => bad(30001, 'no files found: send one multipart part named "file"'),
  fileInput: (why: string) => bad(30002, `file input error: ${why}`),
  archiveInvalid: (why: string) => bad(30005, `archive is empty or invalid: ${why}`),
  archiveKind: () => bad(30006, 'archive must be zip or rar'),
  notImage: () => bad(30011, 'invalid input, not an image'),
  imageFormat: (why: string) => bad(30012, `invalid input, not a valid format: ${why}`),
  imageCorrupt: (why: string) => bad(30013, `invalid input, not a valid format: ${why}`),
  tooManyPixels: (px: number) => bad(30014, `image has more than 8388608 pixels (${px})`),
  vertexSize: (n: number) => bad(30600, `cannot parse vertex file: ${n} bytes is not a multiple of 12`),
  vertexValue: (i: number) => bad(30601, `cannot parse vertex file: value ${i} is not a finite number`),
  noDeformation: () => bad(30603, 'matrix not found: this avatar does not support deformation'),
  forbidden: (what: string) => bad(33201, `action not authorized: ${what}`),
  malformed: (what: string) => bad(40110, `malformed parameters: ${what}`),
  noVertices: () => bad(40446, 'no vertex file found in input'),
  assetType: (t: string) => bad(40460, `asset type not supported: ${t}`),
  invalidCursor: () => bad(50004, 'invalid cursor'),
  invalidListRequest: (t: string) => bad(50006, `invalid list request: ${t}`),
  notDone: (status: string) => bad(75005, `execute can only be called when status is done (status: ${status})`),
  unreadableInput: (why: string) => bad(75006, `cannot read input: ${why}`),
  rateLimited: (limit: number, windowSeconds: number) =>
    new ServiceError(99998, 429, `request rate limit exceeded: at most ${limit} requests in ${windowSeconds} s per application key, retry later`),
  storageFull: () => new ServiceError(99998, 507, 'error with configuration: the service storage is full, retry later'),
  internal: (requestId: string) => new ServiceError(99999, 500, `internal error (request id ${requestId})`),
};
