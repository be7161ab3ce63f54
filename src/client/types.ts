/** Wire shapes of the service's responses (field names as the spec gives them). */
import type { Feature, InputType, Platform, TemplateVersion } from '../model/product.ts';

export type { Feature, InputType, Platform };
export type Template = TemplateVersion;
export type AvatarStatus = 'pending' | 'processing' | 'error' | 'done';
/** A platform package, or whatever other asset type the service offers for a key (e.g. of an on-demand result). */
export type DownloadType = Platform | (string & {});
export type PreviewType = 'jpg' | 'png';
export type SpeechOutput = 'wav' | 'ogg' | 'pcm' | 'mp3' | 'json';

export interface Profile {
  points: number;
  tier_code: string;
  tier_label: string;
  next_expiration_date: string;
  next_expiration_points: number | string;
  available_features: string[];
}

export interface MetaEntry {
  name: string;
  value: string;
  /** Present on entries the pipeline wrote, absent on the client's own. */
  defined?: string;
}

export interface Avatar {
  key: string;
  is_public: 0 | 1;
  is_sample: 0 | 1;
  error_code: number;
  template_version: string;
  optional_features: string;
  created_by: string;
  percent: number;
  /** The input type the avatar was made from; of a result key, `blendshapes` or `vertexdeform`. */
  type: string;
  created_at: string;
  updated_at: string;
  status: AvatarStatus;
  meta: MetaEntry[];
  /** A failed avatar or result: its code and what happened and what to do ("10001 no face was found ...; use ..."). */
  msg?: string;
}

/**
 * The status body: the avatar (or result) with `stt`. One the pipeline refused or failed (`status` "error")
 * comes with `stt` "NOK" and `msg` ("10001 ..."), still HTTP 200, every field kept.
 */
export type AvatarStatusBody = Avatar & ({ stt: 'OK' } | { stt: 'NOK'; msg: string });

export interface ListPage {
  total_list_size: number;
  samples_count: number;
  /** Local URIs, requested under `/v2`. */
  next?: string;
  previous?: string;
  update: string;
  /** Recommended seconds to wait before calling `update`. */
  ttl: number;
  models: Avatar[];
}

/** Response of an `update` URI: the avatars changed since the code, and the next `update` URI. */
export interface ListUpdate extends Omit<ListPage, 'next' | 'previous'> {
  /** Keys removed since the code (this service's addition to the spec). */
  deleted?: string[];
}

export interface Link {
  ttl: number;
  location: string;
}

export interface SpeechLinks {
  ttl: number;
  audio_type?: string;
  audio_location?: string;
  audioURL?: string;
  visemes_type?: string;
  visemes_location?: string;
  marksURL?: string;
}

/** A voice `tts` accepts. */
export interface Voice {
  name: string;
  /** BCP-47 tag. */
  language: string;
  gender: string;
}

/** Response of GET /v2/speech/voices (this service's addition: the spec does not show the voice list). */
export interface VoiceList {
  default_voice: string;
  voices: Voice[];
  /** Names of a cloud provider's voices that are accepted too, with the voice each one speaks with. */
  cloud_names: (Voice & { voice: string })[];
}

/** One line of the visemes (speech marks) file. */
export interface SpeechMark {
  time: number;
  type: 'sentence' | 'word' | 'viseme' | 'ssml';
  start?: number;
  end?: number;
  value: string;
}

export interface CreateOptions {
  inputType: InputType;
  platforms?: Platform[];
  template: Template;
  features?: Feature[];
  /** File name sent with the upload; defaults from the input type. */
  fileName?: string;
}

export interface WaitOptions {
  /** Called after every status poll. */
  onProgress?: (avatar: Avatar) => void;
  /** First poll interval in ms (default 1000); it grows while nothing changes, up to 10x. */
  pollMs?: number;
  /** Give up after this many ms (default: never). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface TtsOptions {
  /** Outputs (default mp3 + json); of several audio formats the service uses the last. */
  mode?: SpeechOutput[];
  type?: 'text' | 'ssml';
  voice?: string;
}

export interface VertexOptions {
  /** The caller's length units per metre: 1 for metres, 100 for centimetres (the pipeline's unit, default). */
  unitsPerMeter?: 1 | 100;
  /** The caller's engine mirrors X: negate X on the way in and on the way out. */
  mirrorX?: boolean;
}
