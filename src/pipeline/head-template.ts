import type { TemplateVersion } from '../model/avatar.ts';
import { generateTemplate } from '../geometry/template/build.ts';
import type { HeadTemplate } from '../geometry/template/types.ts';
import { loadCanonicalFace } from './canonical-face-file.ts';

const cache = new Map<TemplateVersion, HeadTemplate>();

/** The head template of a version: deterministic, built once per process (treat it as read-only). */
export function buildTemplate(version: TemplateVersion): HeadTemplate {
  let template = cache.get(version);
  if (!template) {
    template = generateTemplate(version, loadCanonicalFace());
    cache.set(version, template);
  }
  return template;
}
