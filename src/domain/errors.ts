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
    /** For a limit (429): seconds until a retry can succeed, sent as `Retry-After`. */
    readonly retryAfterSeconds?: number,
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

/** The largest size with the aspect ratio of `width` x `height` that has at most `maxPixels` pixels. */
function fitWithin(width: number, height: number, maxPixels: number): string {
  const scale = Math.sqrt(maxPixels / (width * height));
  return `${Math.floor(width * scale)} x ${Math.floor(height * scale)}`;
}

/**
 * Constructors for every error the service emits, so that codes are chosen in one place. Each text says
 * what happened and then, after a semicolon, what the client can do about it: the API's `msg`, the portal
 * and the `avatar` command line all show this text.
 */
export const errors = {
  // 401
  noAuth: () => unauthorized(10040, 'cannot authenticate: missing or malformed Authorization header; sign every request with ServiceDigest (docs/API.md), or use the avatar command or the client library'),
  authFail: () => unauthorized(10032, 'authentication fail: digest does not match; check the application key and its secret'),
  replay: () => unauthorized(10032, 'authentication fail: nonce already used; send a new random nonce with every request'),
  unknownKey: () => unauthorized(14704, 'incorrect credentials: unknown application key; check the key, or create one in the portal (Keys)'),
  revokedKey: () => unauthorized(14705, 'incorrect credentials: application key revoked; create a new key in the portal (Keys)'),
  // 402
  notEnoughPoints: (need: number, have: number) =>
    new ServiceError(33200, 402, `not enough points: ${need} needed, ${have} available; ask the service's administrator for more points`),
  // 404
  avatarNotFound: () => notFound(10400, 'avatar not found; it was deleted, or the key is mistyped'),
  notInAccount: () => notFound(10501, 'avatar key not found in the account; use the key of the account that made it'),
  routeNotFound: (method: string, url: string) => notFound(40410, `unknown resource: ${method} ${url}; GET /v2/openapi.json lists every endpoint`),
  assetNeverMade: (what: string) => notFound(40451, `the specified asset does not exist: ${what}`),
  // 200: what the status of an avatar or result the pipeline refused or failed says about its 100xx code
  pipelineFailed: (code: number) => new ServiceError(code, 200, pipelineCodeText(code)),
  // 400
  invalidKey: () => bad(41111, 'invalid key; use a key that New, List or Execute returned'),
  validation: (what: string) => bad(10001, `field validation errors: ${what}`),
  uploadMode: (mode: string) => bad(12801, `upload mode not supported: ${mode}; use photo, lofimesh_texture or hifimesh_texture_photo`),
  unknownFeature: (f: string) => bad(12803, `feature not supported: ${f}; use basic, expressions or visemes`),
  onDemandUnavailable: (what: string) => bad(12804, `on-demand feature not available: ${what}`),
  featureUnavailable: (f: string) => bad(12805, `feature not available to this account: ${f}; ask the service's administrator to grant it`),
  invalidTemplate: (t: string) => bad(19100, `invalid template: ${t}; use 1.6 or 2.0`),
  assetNotReady: () => bad(23544, 'asset not available yet; wait until the status is done'),
  noFile: () => bad(30001, 'no files found: send one multipart part named "file"'),
  fileInput: (why: string) => bad(30002, `file input error: ${why}`),
  archiveInvalid: (why: string) => bad(30005, `archive is empty or invalid: ${why}`),
  archiveKind: () => bad(30006, 'archive must be zip or rar'),
  notImage: () => bad(30011, 'invalid input, not an image; upload a JPEG or PNG photo'),
  imageFormat: (why: string) => bad(30012, `invalid input, not a valid format: ${why}`),
  imageCorrupt: (why: string) => bad(30013, `invalid input, not a valid format: ${why}; save the photo again as JPEG or PNG`),
  tooManyPixels: (width: number, height: number, maxPixels: number) =>
    bad(30014, `image has more than ${maxPixels} pixels (${width} x ${height}); shrink the photo to at most 8 MP, for example ${fitWithin(width, height, maxPixels)}, and upload it again`),
  vertexSize: (n: number) => bad(30600, `cannot parse vertex file: ${n} bytes is not a multiple of 12; send x, y, z as little-endian 32-bit floats per vertex`),
  vertexValue: (i: number) => bad(30601, `cannot parse vertex file: value ${i} is not a finite number`),
  noDeformation: () => bad(30603, 'matrix not found: this avatar does not support deformation'),
  forbidden: (what: string) => bad(33201, `action not authorized: ${what}`),
  malformed: (what: string) => bad(40110, `malformed parameters: ${what}`),
  noVertices: () => bad(40446, 'no vertex file found in input; send at least one vertex'),
  assetType: (t: string) => bad(40460, `asset type not supported: ${t}`),
  invalidCursor: () => bad(50004, 'invalid cursor; start again from GET /v2/avatar/list'),
  invalidListRequest: (t: string) => bad(50006, `invalid list request: ${t}; use the next, previous or update URI of a list answer`),
  notDone: (status: string) => bad(75005, `execute can only be called when status is done (status: ${status}); wait until it is done`),
  unreadableInput: (why: string) => bad(75006, `cannot read input: ${why}`),
  rateLimited: (limit: number, windowSeconds: number, retryAfterSeconds: number) =>
    new ServiceError(
      99998, 429,
      `request rate limit exceeded: at most ${limit} requests in ${windowSeconds} s per application key; retry in ${retryAfterSeconds} s, and poll less often`,
      retryAfterSeconds,
    ),
  storageFull: () => new ServiceError(99998, 507, "error with configuration: the service storage is full; retry later, or ask the service's administrator to free space"),
  internal: (requestId: string) => new ServiceError(99999, 500, `internal error (request id ${requestId}); retry, and if it happens again give the request id to the service's administrator`),
};
