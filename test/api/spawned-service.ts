import fs from 'node:fs/promises';
import { exited, readCredentials, startServerProcess } from '../../tools/harness/process.ts';
import { scriptedPipeline, tempDir } from '../../tools/harness/service.ts';

/**
 * `npm start` as a user runs it (its own process, real HTTP and speech), with a fresh DATA_DIR, no
 * samples, and the scripted pipeline of the service tests so that avatars finish in about `pipelineMs`.
 */
export async function spawnService(env: Record<string, string> = {}, pipelineMs = 300) {
  const dataDir = tempDir('avatar-client-test-');
  const server = await startServerProcess({
    DATA_DIR: dataDir, SAMPLES: '0', LOG_LEVEL: 'warn', PIPELINE_MODULE: scriptedPipeline, SCRIPTED_PIPELINE_MS: String(pipelineMs), ...env,
  });
  const { key, secret } = readCredentials(dataDir);
  return {
    url: server.url, key, secret, dataDir,
    log: server.output,
    async stop() {
      server.child.kill('SIGTERM');
      await exited(server.child);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type SpawnedService = Awaited<ReturnType<typeof spawnService>>;

/** A face photo of the test fixtures (tests may read it; the product never does). */
export const testPhoto = () => fs.readFile(new URL('../fixtures/faces/p01-a.jpg', import.meta.url));
