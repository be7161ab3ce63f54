import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

const schema = JSON.parse(readFileSync(new URL('../../schemas/avatar_model.schema.json', import.meta.url), 'utf8'));

/** Validates an `avatar_model.json` document against the repository's JSON Schema. */
export const validateUnityModel = new Ajv({ allErrors: true, strict: true }).compile(schema);
