import type { AvatarListing, AvatarReport } from '../domain/avatars.ts';
import { formatTime } from '../domain/ids.ts';

/** An avatar (or an on-demand result) as the interface reports it: the spec's field names and values. */
export function avatarObject({ avatar: a, meta, result }: AvatarReport) {
  return {
    key: result ? `${a.key}@${result.childKey}` : a.key,
    is_public: a.isPublic ? 1 : 0,
    is_sample: a.isSample ? 1 : 0,
    error_code: result ? result.errorCode : a.errorCode,
    template_version: a.template,
    optional_features: a.features.join(','),
    created_by: result ? result.createdBy : a.createdBy,
    percent: result ? result.percent : a.percent,
    // A result key reports what it is, not what its avatar was made from.
    type: result ? result.kind : a.inputType,
    created_at: formatTime(result ? result.createdAt : a.createdAt),
    updated_at: formatTime(result ? result.updatedAt : a.updatedAt),
    status: result ? result.status : a.status,
    meta,
  };
}

export type AvatarObject = ReturnType<typeof avatarObject>;

/** A list answer: the counts, the paths that continue the list (relative to `/v2`), and the avatars. */
export function listObject(l: AvatarListing) {
  return {
    total_list_size: l.total,
    samples_count: l.samples,
    ttl: l.ttl,
    ...(l.afterCode ? { next: `/avatar/list/cursor/${l.afterCode}` } : {}),
    ...(l.beforeCode ? { previous: `/avatar/list/cursor/${l.beforeCode}` } : {}),
    update: `/avatar/list/update/${l.updateCode}`,
    models: l.avatars.map(avatarObject),
    ...(l.removedKeys ? { deleted: l.removedKeys } : {}),
  };
}
