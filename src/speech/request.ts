import { SpeechError, SpeechErrorCode } from './errors.ts';
import type { Plan } from './plan.ts';
import { planPlainText } from './plan.ts';
import { planSsml } from './ssml.ts';

export interface SpeechRequest {
  text: string;
  type?: 'text' | 'ssml';
  voice?: string;
}

/** Characters (code points) of plain text, or of the words an SSML document says. */
export const MAX_SPOKEN_CHARS = 3000;
/** Characters of an SSML document including its markup. */
export const MAX_SSML_CHARS = 6000;

const invalid = (message: string) => new SpeechError(SpeechErrorCode.fieldValidation, message);

/** Checks a request body's fields and types (the HTTP layer passes the parsed JSON body as it came). */
export function validateRequest(body: unknown): SpeechRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the request body must be a JSON object');
  const { text, type, voice } = body as Record<string, unknown>;
  if (typeof text !== 'string') throw invalid('text is required and must be a string');
  if (text.trim() === '') throw invalid('text is empty');
  if (type !== undefined && type !== null && type !== 'text' && type !== 'ssml') throw invalid('type must be "text" or "ssml"');
  if (voice !== undefined && voice !== null && typeof voice !== 'string') throw invalid('voice must be a string');
  return { text, type: type === 'ssml' ? 'ssml' : 'text', voice: typeof voice === 'string' ? voice : undefined };
}

/** Turns a validated request's text into a synthesis plan, enforcing the length limits. */
export function planRequest(request: SpeechRequest): Plan {
  const length = [...request.text].length;
  if (request.type === 'ssml' && length > MAX_SSML_CHARS) throw invalid(`SSML is longer than ${MAX_SSML_CHARS} characters`);
  if (request.type !== 'ssml' && length > MAX_SPOKEN_CHARS) throw invalid(`text is longer than ${MAX_SPOKEN_CHARS} characters`);
  const { plan, spokenLength } = request.type === 'ssml' ? planSsml(request.text) : planPlainText(request.text);
  if (spokenLength > MAX_SPOKEN_CHARS) throw invalid(`the SSML says more than ${MAX_SPOKEN_CHARS} characters`);
  if (spokenLength === 0) throw invalid('text has nothing to say');
  return plan;
}
