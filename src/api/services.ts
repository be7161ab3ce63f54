import type { Accounts } from '../domain/accounts.ts';
import type { Avatars } from '../domain/avatars.ts';
import type { Portal } from '../domain/portal.ts';
import type { Files, LinkVerifier } from '../domain/ports.ts';
import type { AdmissionStores } from './authenticate.ts';
import type { Speech } from '../domain/speech.ts';

/** What the HTTP layer is handed: the domain's services and, for serving signed links, the file store. */
export interface Services {
  /** What the authentication of `/v2` requests reads and counts. */
  admission: AdmissionStores;
  accounts: Accounts;
  avatars: Avatars;
  speech: Speech;
  portal: Portal;
  files: Pick<Files, 'open'>;
  /** Present with the embedded file store, whose links this service serves itself. */
  linkSigner?: LinkVerifier;
  /** Public base URL for links; when unset it is taken from the request's Host. */
  publicUrl?: string;
  /** Requests per second per application key, averaged over a window (0: no limit). */
  rateLimit: number;
  maxUploadBytes: number;
  maxVertexBytes: number;
}
