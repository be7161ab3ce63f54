/**
 * JSON schemas of the spec's objects. Fastify uses them to serialise responses, and the OpenAPI
 * document is generated from them, so the documented shape is the shape sent.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const flag = { type: 'integer', enum: [0, 1] } as const;

export const metaEntry = {
  type: 'object',
  required: ['name', 'value'],
  properties: { name: str, value: str, defined: str },
} as const;

export const avatarObject = {
  type: 'object',
  required: ['key', 'is_public', 'is_sample', 'error_code', 'template_version', 'optional_features', 'created_by', 'percent', 'type', 'created_at', 'updated_at', 'status', 'meta'],
  properties: {
    key: str,
    is_public: flag,
    is_sample: flag,
    error_code: int,
    template_version: str,
    optional_features: str,
    created_by: str,
    percent: { type: 'integer', minimum: 0, maximum: 100 },
    type: { type: 'string', description: 'the input type; of a result key, blendshapes or vertexdeform' },
    created_at: str,
    updated_at: str,
    status: { type: 'string', enum: ['pending', 'processing', 'error', 'done'] },
    meta: { type: 'array', items: metaEntry },
  },
} as const;

const voice = {
  type: 'object',
  required: ['name', 'language', 'gender'],
  properties: { name: str, language: { type: 'string', description: 'BCP-47 tag' }, gender: str },
} as const;

const envelope = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: 'object',
  required: ['stt', ...required],
  properties: { stt: { type: 'string', enum: ['OK'] }, ...properties },
});

export const failure = {
  type: 'object',
  required: ['stt', 'msg'],
  properties: { stt: { type: 'string', enum: ['NOK'] }, msg: { type: 'string', description: 'five-digit error code, a space, and a text' } },
} as const;

export const responses = {
  ok: envelope(),
  key: envelope({ key: str }, ['key']),
  status: {
    type: 'object',
    description: 'The avatar (or result). One the pipeline refused or failed (status "error") answers HTTP 200 too, with stt "NOK", msg and every field of the avatar',
    required: ['stt', ...avatarObject.required],
    properties: {
      stt: { type: 'string', enum: ['OK', 'NOK'] },
      msg: { type: 'string', description: 'only when status is "error": the 100xx code of the failure, a space, and a text (docs/API.md)' },
      ...avatarObject.properties,
    },
  },
  link: envelope({ ttl: int, location: str }, ['ttl', 'location']),
  meta: envelope({ meta: { type: 'array', items: metaEntry }, models: { type: 'array', items: metaEntry } }, ['meta']),
  profile: envelope(
    {
      points: int,
      tier_code: str,
      tier_label: str,
      next_expiration_date: str,
      next_expiration_points: int,
      available_features: { type: 'array', items: str },
    },
    ['points', 'tier_code', 'tier_label', 'next_expiration_date', 'next_expiration_points', 'available_features'],
  ),
  list: envelope(
    {
      total_list_size: int,
      samples_count: int,
      next: str,
      previous: str,
      ttl: int,
      update: str,
      models: { type: 'array', items: avatarObject },
      deleted: { type: 'array', items: str, description: 'update responses only: keys removed since the code was issued' },
    },
    ['total_list_size', 'samples_count', 'ttl', 'update', 'models'],
  ),
  voices: envelope(
    {
      default_voice: str,
      voices: { type: 'array', items: voice },
      cloud_names: { type: 'array', items: { ...voice, required: [...voice.required, 'voice'], properties: { ...voice.properties, voice: str } } },
    },
    ['default_voice', 'voices', 'cloud_names'],
  ),
  tts: envelope({
    ttl: int,
    audio_type: str,
    audio_location: str,
    audioURL: str,
    visemes_type: str,
    visemes_location: str,
    marksURL: str,
  }, ['ttl']),
};

/** Path parameters, all strings. */
export const params = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((n) => [n, str])),
});

/** The schema of a route: its summary, path parameters and success body, plus the failure body for every error status. */
export const route = (summary: string, tag: string, ok: object, paramNames: string[] = []) => ({
  summary,
  tags: [tag],
  ...(paramNames.length ? { params: params(...paramNames) } : {}),
  response: { 200: ok, '4xx': failure, '5xx': failure },
});
