import type { FastifyError, FastifyInstance } from 'fastify';
import { ServiceError, errors } from '../domain/errors.ts';

/** Fastify's own 4xx errors, in the spec's vocabulary. */
function fromFastify(e: FastifyError): ServiceError | undefined {
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_VALIDATION':
      return errors.validation(e.message);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.fileInput(`request body too large (${e.message})`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return errors.malformed(`unsupported content type`);
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return errors.malformed('too many parts in the upload (send one part named "file")');
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) return errors.malformed(e.message);
  return undefined;
}

/** Errors of the libraries (speech, formats) carry a spec code and an HTTP status of their own. */
function fromLibrary(e: unknown): ServiceError | undefined {
  const c = e as { code?: unknown; httpStatus?: unknown; message?: unknown };
  if (typeof c.code === 'number' && c.code >= 10000 && c.code <= 99999) {
    return new ServiceError(c.code, typeof c.httpStatus === 'number' ? c.httpStatus : 400, String(c.message ?? ''));
  }
  return undefined;
}

/** A full disk or database: the request is refused cleanly and can be retried once space is freed. */
function fromSystem(e: unknown): ServiceError | undefined {
  const code = (e as { code?: unknown }).code;
  if (code === 'ENOSPC' || code === 'SQLITE_FULL' || code === 'EDQUOT') return errors.storageFull();
  return undefined;
}

/** Every answer is JSON with `stt`; a failure carries `msg` starting with its five-digit code. */
export function registerEnvelope(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    let e = error instanceof ServiceError ? error : (fromSystem(error) ?? fromLibrary(error) ?? fromFastify(error as FastifyError));
    if (!e) {
      request.log.error({ err: error }, 'unexpected failure');
      e = errors.internal(String(request.id));
    } else if (e.httpStatus >= 500) {
      request.log.error({ err: error }, 'service failure');
    }
    if (e.retryAfterSeconds !== undefined) void reply.header('retry-after', String(e.retryAfterSeconds));
    return reply.code(e.httpStatus).type('application/json; charset=utf-8').send({ stt: 'NOK', msg: e.msg });
  });
  app.setNotFoundHandler((request, reply) => {
    const e = errors.routeNotFound(request.method, request.url.split('?')[0]!);
    return reply.code(404).send({ stt: 'NOK', msg: e.msg });
  });
}

export const ok = <T extends object>(body: T) => ({ stt: 'OK' as const, ...body });

/** An avatar or result in `error` carries its code and text (what happened; what to do) as `msg`. */
export const withFailure = <A extends { status: string; error_code: number }>(a: A): A & { msg?: string } =>
  a.status === 'error' ? { ...a, msg: errors.pipelineFailed(a.error_code).msg } : a;
/** A failure answered with its own HTTP status and the body's other fields kept (a failed avatar's status). */
export const failedWith = <T extends object>(e: ServiceError, body: T) => ({ stt: 'NOK' as const, msg: e.msg, ...body });
