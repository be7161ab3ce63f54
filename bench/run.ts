import fs from 'node:fs';
import os from 'node:os';
import type { Figure } from './figure.ts';

/**
 * `npm run bench`: every figure the issues ask for, each timing beside a baseline measured in the same
 * run. `-- --json` prints one JSON object keyed by figure; `-- --only a,b` runs some bench files.
 */
const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : undefined;
const dir = new URL('./', import.meta.url);
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !['run.ts', 'figure.ts', 'timing.ts'].includes(f)).sort();

const figures: (Figure & { bench: string })[] = [];
let peakRss = process.memoryUsage().rss;
for (const file of files) {
  const name = file.replace(/\.ts$/, '');
  if (only && !only.includes(name)) continue;
  if (!json) process.stderr.write(`bench ${name} ...\n`);
  try {
    const mod = (await import(new URL(file, dir).href)) as { default: () => Promise<Figure[]> };
    for (const f of await mod.default()) figures.push({ ...f, bench: name });
  } catch (e) {
    process.stderr.write(`bench ${name} failed: ${(e as Error).stack}\n`);
    process.exitCode = 1;
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}

if (json) {
  console.log(JSON.stringify(Object.fromEntries(figures.map((f) => [f.key, f.value]))));
} else {
  const rows = figures.map((f) => [f.bench, f.key, `${f.value} ${f.unit}`.trim(), f.baseline ?? '', f.goal ?? '']);
  const head = ['bench', 'figure', 'value', 'baseline', 'goal'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(width[i]!)).join('  ');
  console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
  console.log(line(head));
  console.log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}
