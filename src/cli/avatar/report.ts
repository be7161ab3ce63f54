import { AvatarApiError, AvatarWaitTimeout } from '../../client/index.ts';
import { settingSource } from '../../client/node/config.ts';
import { UsageError } from './options.ts';

type Env = Record<string, string | undefined>;

/** What the command knows beyond the error: where it sent the request and where its settings came from. */
export interface ReportContext {
  env: Env;
  /** The service address the command used, once the configuration was loaded. */
  host?: string;
  command?: string;
  /** The avatar or result key the command was about. */
  key?: string;
}

const AUTH_CODES = [10032, 10040, 14704, 14705];

/**
 * What only the command line can add to an error's own text (which already says what happened and what to
 * do): the host it tried, where the key and secret came from, and the command that helps.
 */
export function cliHint(e: unknown, ctx: ReportContext): string | undefined {
  if (e instanceof UsageError) return e.command ? `"avatar ${e.command} --help" lists its arguments and options` : '"avatar --help" lists the commands';
  if (e instanceof AvatarWaitTimeout) return `"avatar status ${e.last.key}" follows it from here`;
  if (!(e instanceof AvatarApiError)) return undefined;
  if (e.httpStatus === 0) {
    return `the address ${ctx.host ?? ''} comes from ${settingSource('host', ctx.env)}: start the service there, or save another address with "avatar init --host URL"`;
  }
  if (e.code === -1) return `the address ${ctx.host ?? ''} comes from ${settingSource('host', ctx.env)}; change it with "avatar init --host URL"`;
  if (AUTH_CODES.includes(e.code)) {
    const sources = [...new Set([settingSource('key', ctx.env), settingSource('secret', ctx.env)])].join(' and ');
    return `the key and secret come from ${sources}: run "avatar init" to check a key and secret and save them`;
  }
  if (e.code === 33200 || e.code === 12805) return '"avatar account" shows the points and features of the account';
  if (e.code === 51300 && /voice/.test(e.text)) return '"avatar voices" lists the voices';
  if (e.code === 23544 && ctx.key) return `"avatar status ${ctx.key}" shows how far it is`;
  return undefined;
}

/** The error for a person: "NNNNN text" of the service (without the HTTP status it came with), else the message. */
export function errorText(e: unknown): string {
  if (e instanceof AvatarApiError) return e.code >= 0 ? `${String(e.code).padStart(5, '0')} ${e.text}` : e.text;
  return e instanceof Error ? e.message : String(e);
}

/** The error as the JSON document of --json. */
export function errorJson(e: unknown, hint: string | undefined) {
  const error =
    e instanceof AvatarApiError ? { code: e.code, text: e.text, httpStatus: e.httpStatus }
    : e instanceof AvatarWaitTimeout ? { key: e.last.key, status: e.last.status, percent: e.last.percent, text: e.message }
    : { text: errorText(e) };
  return { error: hint ? { ...error, hint } : error };
}
