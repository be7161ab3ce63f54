import fs from 'node:fs';
import path from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { jpeg, startTestService, tempDir } from '../../tools/harness/service.ts';
import { channels, type FuzzContext } from './channels.ts';
import { random } from './random.ts';

export interface FuzzReport {
  tried: Record<string, number>;
  failures: { channel: string; seed: number; status: number; body: unknown }[];
  rssGrowthMb: number;
  strayFiles: string[];
}

/** Codes the documentation lists: a failure must carry one of them. */
function documentedCodes(): Set<number> {
  const docs = ['API.md', 'SPEECH.md', 'PIPELINE.md'].map((f) => new URL(`../../docs/${f}`, import.meta.url)).filter((u) => fs.existsSync(u));
  return new Set(docs.flatMap((u) => [...fs.readFileSync(u, 'utf8').matchAll(/\b(\d{5})\b/g)].map((m) => Number(m[1]))));
}

/**
 * Sends `perChannel` malformed or random inputs through each input channel of a running service and
 * collects every answer that is a 5xx, not the JSON envelope, or a code the docs do not list.
 */
export async function runFuzz(perChannel: number, seed = 1, only?: string[]): Promise<FuzzReport> {
  const sandbox = tempDir('avatar-fuzz-');
  const dataDir = path.join(sandbox, 'data');
  const s = await startTestService({ dataDir, rateLimit: 0 }, {}, 'real');
  const codes = documentedCodes();
  const report: FuzzReport = { tried: {}, failures: [], rssGrowthMb: 0, strayFiles: [] };
  try {
    const photo = await jpeg(48, 48);
    const key = (await s.client.upload('/v2/avatar/new/photo/maya/2.0/expressions', photo)).body.key as string;
    await s.client.waitFor(key);
    const obj = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\nf 1/1/1 2/2/1 3/3/1\n';
    const ctx: FuzzContext = {
      client: s.client, url: s.url, key, photo, obj,
      meshZip: zipSync({ 'mesh.obj': strToU8(obj), 'mesh.jpg': photo }),
      link: (await s.client.get(`/v2/avatar/${key}/preview`)).body.location,
      listCode: (await s.client.get('/v2/avatar/list')).body.update.split('/').pop(),
    };
    const rss0 = process.memoryUsage().rss;
    for (const [name, channel] of Object.entries(channels)) {
      if (only && !only.includes(name)) continue;
      report.tried[name] = 0;
      for (let i = 0; i < perChannel; i++) {
        const caseSeed = seed * 1_000_003 + i * 7919 + name.length;
        const reply = await channel(random(caseSeed), ctx);
        report.tried[name]++;
        const body = reply.body as { stt?: string; msg?: string };
        const code = Number(body?.msg?.slice(0, 5));
        const fine = reply.status < 500 && (body?.stt === 'OK' || (body?.stt === 'NOK' && codes.has(code)));
        if (!fine) report.failures.push({ channel: name, seed: caseSeed, status: reply.status, body: reply.body });
      }
    }
    report.rssGrowthMb = Math.round((process.memoryUsage().rss - rss0) / 2 ** 20);
    report.strayFiles = fs.readdirSync(sandbox).filter((f) => f !== 'data');
  } finally {
    await s.stop();
    fs.rmSync(sandbox, { recursive: true, force: true });
  }
  return report;
}
