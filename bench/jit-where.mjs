// Where the anonymous functions that TurboFan compiles in jobs FROM..N lie in the source. --perf-basic-prof's
// TurboFan entries ("JS:*") are in compile order but carry no job marks (and the helper thread's interleave
// differently from --trace-opt's lines), so the jobs are taken as the same share of the entries as of the trace's
// completed compiles. tsx's positions are mapped back through the source maps in its cache (/tmp/tsx-UID), found
// by the file's current text. Usage: node bench/jit-where.mjs TRACE PERFMAP [FROM=4]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
const [traceFile, mapFile, fromArg] = process.argv.slice(2);
const from = Number(fromArg ?? 4);
let job = 0, before = 0, total = 0;
const jobs = new Set();
for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
  const mark = /^JOBMARK (\S+)/.exec(line);
  if (mark) { job = mark[1] === 'end' ? Infinity : Number(mark[1]); if (job >= from && job !== Infinity) jobs.add(job); continue; }
  if (/\[completed compiling .*\(target TURBOFAN\)/.test(line)) { total++; if (job < from) before++; }
}
const entries = [];
for (const line of readFileSync(mapFile, 'utf8').split('\n')) {
  const m = /^\w+ \w+ JS:\*(\S*) (.*):(\d+):(\d+)$/.exec(line);
  if (m) entries.push({ name: m[1], file: m[2], line: Number(m[3]), col: Number(m[4]) });
}
const start = Math.round((entries.length * before) / total);
// tsx's cache entries name their file in the map's sources (without its text); the newest entry of a path is
// the one the run used when the file has not changed since.
const cache = new Map();
for (const d of readdirSync(os.tmpdir()).filter((d) => d.startsWith('tsx-'))) {
  for (const f of readdirSync(`${os.tmpdir()}/${d}`)) {
    const path = `${os.tmpdir()}/${d}/${f}`;
    try {
      const j = JSON.parse(readFileSync(path, 'utf8'));
      const source = j.map?.sources?.[0];
      const time = statSync(path).mtimeMs;
      if (source && !(cache.get(source)?.time > time)) cache.set(source, { map: j.map, time });
    } catch { /* not a cache entry */ }
  }
}
const maps = new Map();
function mapOf(file) {
  if (!maps.has(file)) {
    const path = file.replace(/^file:\/\//, '');
    const hit = cache.get(path);
    maps.set(file, hit && { sm: new SourceMap(hit.map), src: readFileSync(path, 'utf8').split('\n') });
  }
  return maps.get(file);
}
const by = new Map();
for (const e of entries.slice(start)) {
  if (e.name) continue;
  let where = `${e.file}:${e.line}:${e.col}`;
  const m = mapOf(e.file);
  if (m) {
    const hit = m.sm.findEntry(e.line - 1, e.col - 1);
    if (hit && hit.originalLine !== undefined) where = `${e.file.replace(/.*\/src\//, 'src/')}:${hit.originalLine + 1}  ${(m.src[hit.originalLine] ?? '').trim().slice(0, 100)}`;
  }
  by.set(where, (by.get(where) ?? 0) + 1);
}
const per = jobs.size || 1;
console.log(`anonymous TurboFan compiles per job (entries ${start}..${entries.length} of the perf map): ${([...by.values()].reduce((a, b) => a + b, 0) / per).toFixed(1)}`);
for (const [w, n] of [...by].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 50))) console.log(`${(n / per).toFixed(2).padStart(6)}  ${w}`);
