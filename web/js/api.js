/** The portal's JSON endpoints (/portal/api). The session cookie rides along; state-changing calls carry the CSRF token. */

let csrf = '';

/** A failure the service reported: `code` and the text of its `msg` (what happened; what to do). */
export class ApiError extends Error {
  constructor(status, msg) {
    super(msg);
    this.status = status;
    const match = /^(\d{5}) (.*)$/s.exec(String(msg));
    this.code = match ? Number(match[1]) : undefined;
    this.text = match ? match[2] : String(msg);
  }
}

export function setCsrf(token) {
  csrf = token;
}

async function call(method, path, body) {
  const headers = {};
  let payload;
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(`/portal/api${path}`, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'the service cannot be reached; check that it is running, then reload the page');
  }
  const data = await res.json().catch(() => ({ stt: 'NOK', msg: `the service answered HTTP ${res.status} ${res.statusText} without its JSON; reload the page, or check the service` }));
  // The status of a failed avatar is an answer, not a failure of the request, whatever its `stt` says.
  if (data.stt !== 'OK' && !(res.status === 200 && data.status === 'error')) throw new ApiError(res.status, data.msg);
  return data;
}

export const api = {
  get: (path) => call('GET', path),
  post: (path, body) => call('POST', path, body ?? {}),
};

/** Path segment from a user-chosen value. */
export const seg = (s) => encodeURIComponent(s);
