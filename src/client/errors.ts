import type { Avatar } from './types.ts';

/**
 * A failure reported by the service: `code` and `text` come from the `msg` field ("NNNNN text"). The service's
 * texts say what happened and, after a semicolon, what to do. `code` is -1 when the response carried no service
 * error (a proxy's page, no connection); httpStatus is 0 when no response arrived at all.
 */
export class AvatarApiError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
    readonly httpStatus: number,
    /** From a `Retry-After` header: how long the service asks the client to wait before trying again. */
    readonly retryAfterMs?: number,
  ) {
    super(code >= 0 ? `${String(code).padStart(5, '0')} ${text} (HTTP ${httpStatus})` : `${text} (HTTP ${httpStatus})`);
    this.name = 'AvatarApiError';
  }

  /** Worth retrying the same request later: rate limit (429), server-side failure (5xx), no response. */
  get transient(): boolean {
    return this.httpStatus === 0 || this.httpStatus === 429 || this.httpStatus >= 500;
  }
}

/** Splits a `msg` such as "33200 not enough points" into code and text. */
export function parseMsg(msg: string): { code: number; text: string } | undefined {
  const match = /^\s*(\d{1,5})\b\s*[:-]?\s*(.*)$/s.exec(msg);
  return match ? { code: Number(match[1]), text: match[2] } : undefined;
}

/** Milliseconds of a `Retry-After` header (seconds, or an HTTP date). */
function retryAfterMs(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/** The error a non-OK response stands for; `body` is the raw response text. */
export function errorFromResponse(httpStatus: number, body: string, headers?: Headers): AvatarApiError {
  let msg: unknown;
  try {
    msg = (JSON.parse(body) as { msg?: unknown }).msg;
  } catch {
    // not JSON: fall through with the raw text
  }
  const wait = retryAfterMs(headers?.get('retry-after'));
  const parsed = typeof msg === 'string' ? parseMsg(msg) : undefined;
  if (parsed) return new AvatarApiError(parsed.code, parsed.text, httpStatus, wait);
  const raw = typeof msg === 'string' ? msg : body.slice(0, 200).trim();
  return new AvatarApiError(-1, `the answer is not the service's (${raw || 'empty'}); check the service address, and that no proxy stands in the way`, httpStatus, wait);
}

/** No response at all: the service is down, or the address is wrong. */
export function unreachable(origin: string, cause: Error): AvatarApiError {
  return new AvatarApiError(-1, `cannot reach the service at ${origin} (${cause.message}); check that it is running and that the address is right`, 0);
}

/** The pipeline failed: the status endpoint answered 200 with status `error` (spec: 100xx, 40010, 40011), its `msg` saying why. */
export function pipelineError(avatar: Avatar): AvatarApiError {
  return new AvatarApiError(avatar.error_code, avatar.msg ? (parseMsg(avatar.msg)?.text ?? avatar.msg) : `${avatar.key} could not be made`, 200);
}

export class AvatarWaitTimeout extends Error {
  constructor(readonly last: Avatar) {
    super(`${last.key} still ${last.status} (${last.percent}%) when the wait timed out`);
    this.name = 'AvatarWaitTimeout';
  }
}
