import type { Avatar } from './types.ts';

/**
 * A failure reported by the service: `code` and `text` come from the `msg` field ("NNNNN text").
 * `code` is -1 when the response carried no service error (e.g. a proxy's HTML error page, a network failure);
 * httpStatus is 0 when no response arrived at all.
 */
export class AvatarApiError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
    readonly httpStatus: number,
  ) {
    super(code >= 0 ? `${String(code).padStart(5, '0')} ${text} (HTTP ${httpStatus})` : `${text} (HTTP ${httpStatus})`);
    this.name = 'AvatarApiError';
  }

  /** Worth retrying the same request later: rate limit, server-side failure, no response. */
  get transient(): boolean {
    return this.httpStatus === 0 || this.httpStatus >= 500 || this.code === 51300;
  }
}

/** Splits a `msg` such as "33200 not enough points" into code and text. */
export function parseMsg(msg: string): { code: number; text: string } | undefined {
  const match = /^\s*(\d{1,5})\b\s*[:-]?\s*(.*)$/s.exec(msg);
  return match ? { code: Number(match[1]), text: match[2] } : undefined;
}

/** The error a non-OK response stands for; `body` is the raw response text. */
export function errorFromResponse(httpStatus: number, body: string): AvatarApiError {
  let msg: unknown;
  try {
    msg = (JSON.parse(body) as { msg?: unknown }).msg;
  } catch {
    // not JSON: fall through with the raw text
  }
  const parsed = typeof msg === 'string' ? parseMsg(msg) : undefined;
  if (parsed) return new AvatarApiError(parsed.code, parsed.text, httpStatus);
  return new AvatarApiError(-1, typeof msg === 'string' ? msg : body.slice(0, 200) || 'empty response', httpStatus);
}

/** The pipeline failed: the status endpoint answered 200 with status `error` (spec: 100xx, 40010, 40011). */
export function pipelineError(avatar: Avatar & { msg?: string }): AvatarApiError {
  return new AvatarApiError(avatar.error_code, avatar.msg ? (parseMsg(avatar.msg)?.text ?? avatar.msg) : `processing of ${avatar.key} failed`, 200);
}

export class AvatarWaitTimeout extends Error {
  constructor(readonly last: Avatar) {
    super(`${last.key} still ${last.status} (${last.percent}%) when the wait timed out`);
    this.name = 'AvatarWaitTimeout';
  }
}
