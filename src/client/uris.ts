/**
 * One path segment, percent-encoded except for the `,` `@` `:` the spec's paths show literally (lists, result keys).
 * Dot segments would be resolved away by URL parsing, so they are refused.
 */
export function segment(value: string): string {
  if (value === '' || value === '.' || value === '..') throw new RangeError(`"${value}" cannot be a path segment`);
  return encodeURIComponent(value).replace(/%(2C|40|3A)/gi, (escape) => decodeURIComponent(escape));
}

/** A local URI from a list response (`next`, `previous`, `update`) as a path under `/v2`. */
export function underV2(uri: string): string {
  const path = uri.startsWith('/') ? uri : `/${uri}`;
  return path.startsWith('/v2/') ? path : `/v2${path}`;
}
