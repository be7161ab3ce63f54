/** The portal's JSON endpoints (/portal/api). The session cookie rides along; state-changing calls carry the CSRF token. */

let csrf = '';

export class ApiError extends Error {
  constructor(status, msg) {
    super(msg);
    this.status = status;
    this.code = Number(String(msg).slice(0, 5));
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
  const res = await fetch(`/portal/api${path}`, { method, headers, body: payload, credentials: 'same-origin' });
  const data = await res.json().catch(() => ({ stt: 'NOK', msg: `00000 ${res.status} ${res.statusText}` }));
  if (data.stt !== 'OK') throw new ApiError(res.status, data.msg);
  return data;
}

export const api = {
  get: (path) => call('GET', path),
  post: (path, body) => call('POST', path, body ?? {}),
};

/** Path segment from a user-chosen value. */
export const seg = (s) => encodeURIComponent(s);
