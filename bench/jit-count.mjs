// Counts --trace-opt's completed TurboFan compiles per function (and the sum of "took") in jobs FROM..N of a
// jit-trace.mts output, per steady job. Usage: node bench/jit-count.mjs TRACE [FROM=4]
import { readFileSync } from 'node:fs';
const [file, fromArg] = process.argv.slice(2);
const from = Number(fromArg ?? 4);
let job = 0, jobs = new Set(), n = 0, took = 0;
const byName = new Map(), deopts = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const mark = /^JOBMARK (\S+)/.exec(line);
  if (mark) { job = mark[1] === 'end' ? Infinity : Number(mark[1]); if (job !== Infinity && job >= from) jobs.add(job); continue; }
  if (job < from || job === Infinity) continue;
  const done = /\[completed (?:compiling|optimizing) 0x\w+ <JSFunction ([^ >]*)[^>]*> \(target TURBOFAN\)[^-]*- took ([\d.]+), ([\d.]+), ([\d.]+) ms/.exec(line);
  if (done) {
    const name = !done[1] || done[1].startsWith('(') ? '(anonymous)' : done[1];
    const t = done[2] ? Number(done[2]) + Number(done[3]) + Number(done[4]) : 0;
    n++; took += t;
    const e = byName.get(name) ?? { n: 0, took: 0 }; e.n++; e.took += t; byName.set(name, e);
    continue;
  }
  const d = /\[bailout \(kind: ([^,]*), reason: ([^)]*)\): begin\. deoptimizing 0x\w+ <JSFunction ([^ >]*)/.exec(line);
  if (d) { const k = `${d[3].startsWith('(') ? '(anonymous)' : d[3]}: ${d[2]} (${d[1]})`; deopts.set(k, (deopts.get(k) ?? 0) + 1); continue; }
  const m = /marking dependent code 0x\w+ <Code TURBOFAN> \(opt id \d+\) for deoptimization, reason: (\S+)/.exec(line)
    ?? /marking dependent code .*reason: ([^\]]*)/.exec(line);
  if (m) { const k = `(dependent code): ${m[1]}`; deopts.set(k, (deopts.get(k) ?? 0) + 1); }
}
const per = jobs.size || 1;
console.log(`jobs ${[...jobs].join(',')}: TurboFan compiles per job ${(n / per).toFixed(1)}, took per job ${(took / per).toFixed(0)} ms`);
for (const [name, e] of [...byName].sort((a, b) => b[1].took - a[1].took).slice(0, Number(process.env.TOP ?? 40)))
  console.log(`  ${(e.n / per).toFixed(2).padStart(6)} ${(e.took / per).toFixed(1).padStart(7)} ms  ${name}`);
if (deopts.size) {
  console.log('deopts per job:');
  for (const [k, v] of [...deopts].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${(v / per).toFixed(2).padStart(6)}  ${k}`);
}
