import { runFuzz } from '../test/fuzz/run-fuzz.ts';

/** `npm run fuzz [-- --count N --seed S --only channel,...]`: thousands of hostile inputs per channel. */
const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const report = await runFuzz(Number(arg('--count') ?? 2000), Number(arg('--seed') ?? Date.now() % 100000), arg('--only')?.split(','));
for (const [channel, n] of Object.entries(report.tried)) console.log(`${channel.padEnd(22)} ${n} inputs`);
console.log(`memory growth ${report.rssGrowthMb} MB; files outside the data directory: ${report.strayFiles.length}`);
for (const f of report.failures.slice(0, 20)) console.log(`FAIL ${f.channel} seed ${f.seed}: ${f.status} ${JSON.stringify(f.body).slice(0, 300)}`);
console.log(`${report.failures.length === 0 ? 'no failures' : `${report.failures.length} failures`}`);
process.exitCode = report.failures.length || report.strayFiles.length ? 1 : 0;
