import { execFile, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { exited, startServerProcess } from './process.ts';
import { tempDir } from './service.ts';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
const run = promisify(execFile);

/** Fresh service keys, as base64 settings every process of one deployment shares. */
export function sharedKeys(): Record<string, string> {
  const key = () => crypto.randomBytes(32).toString('base64');
  return { MASTER_KEY: key(), LINK_KEY: key(), LIST_KEY: key() };
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  /** Ends the process with SIGTERM and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** One service process (`npm start`) with its own DATA_DIR, so nothing is shared but the configured stores. */
export async function startProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const p = await startServerProcess({ DATA_DIR: tempDir('avatar-proc-'), ...env });
  return {
    ...p,
    async stop() {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
      await exited(p.child);
      return p.child.exitCode;
    },
  };
}

/** Runs an npm script's command (admin, migrate-data) with this environment and returns its stdout. */
export async function runCli(script: 'admin' | 'migrate-data', args: string[], env: Record<string, string>): Promise<string> {
  const file = script === 'admin' ? 'src/cli/admin.ts' : 'src/cli/migrate-data.ts';
  const { stdout } = await run(process.execPath, ['--import', 'tsx', file, ...args], { cwd: root, env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
  return stdout;
}
