import type { Repo } from '../../domain/ports.ts';
import type { SecretBox } from '../secret-box.ts';
import { SqlAccounts } from './accounts.ts';
import { SqlAdmissions } from './admissions.ts';
import { SqlAvatars } from './avatars.ts';
import type { Executor } from './executor.ts';
import { SqlJobQueue } from './job-queue.ts';
import { SqlPortalSessions } from './portal-sessions.ts';

/** The store over any SQL backend: the logic lives in its parts once, the backend is the executor they share. */
export function sqlRepo(db: Executor, box: SecretBox): Repo {
  return {
    accounts: new SqlAccounts(db, box),
    admissions: new SqlAdmissions(db),
    portalSessions: new SqlPortalSessions(db),
    avatars: new SqlAvatars(db),
    jobs: new SqlJobQueue(db),
    close: () => db.close(),
  };
}
