/**
 * The `avatar` command line: every endpoint of the service from a shell. Results go to stdout (JSON with
 * --json), progress and errors to stderr. Exit codes: 0 success, 1 error, 2 still processing.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AvatarClient, AvatarWaitTimeout } from '../client/index.ts';
import { loadConfig } from '../client/node/config.ts';
import { progressBar } from '../client/node/progress.ts';
import { COMMANDS, EXIT, Reported, type Context, type Io } from './avatar/commands.ts';
import { commandHelp, generalHelp } from './avatar/help.ts';
import { nearest, parseOptions, UsageError } from './avatar/options.ts';
import { cliHint, errorJson, errorText, type ReportContext } from './avatar/report.ts';

export type { Io } from './avatar/commands.ts';

/** The command's name: the first argument that is not an option (no common option takes a value). */
const commandIndex = (argv: string[]) => argv.findIndex((a) => !a.startsWith('-'));

/** Runs one command line (without `node` and the script) and returns the exit code. */
export async function main(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }): Promise<number> {
  let json = argv.includes('--json');
  const report: ReportContext = { env: io.env };
  try {
    const at = commandIndex(argv);
    const name = at < 0 ? undefined : argv[at]!;
    const rest = at < 0 ? argv : [...argv.slice(0, at), ...argv.slice(at + 1)];
    if (name === undefined || name === 'help') {
      const topic = name === 'help' ? rest.find((a) => !a.startsWith('-')) : undefined;
      if (topic !== undefined && !COMMANDS[topic]) throw unknownCommand(topic);
      io.stdout.write(`${topic ? commandHelp(topic, COMMANDS[topic]!) : generalHelp(COMMANDS)}\n`);
      return name === undefined && !rest.some((a) => a === '--help' || a === '-h') ? EXIT.error : EXIT.ok;
    }
    const spec = COMMANDS[name];
    if (!spec) throw unknownCommand(name);
    report.command = name;
    const { flags, positionals } = parseOptions(name, rest, spec.options);
    json = flags.json === true;
    if (flags.help) {
      io.stdout.write(`${commandHelp(name, spec)}\n`);
      return EXIT.ok;
    }
    const ctx: Context = {
      name,
      args: positionals,
      flags,
      io,
      report,
      client: async () => {
        const config = await loadConfig(io.env);
        report.host = config.host;
        return new AvatarClient({ baseUrl: config.host, key: config.key, secret: config.secret });
      },
      out: (value, text) => {
        if (json) io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
        else if (text) io.stdout.write(`${text}\n`);
      },
      wait: async (client, key) => {
        const bar = progressBar(io.stderr, key);
        const raw = flags.timeout as string | undefined;
        const seconds = raw === undefined ? undefined : Number(raw);
        if (seconds !== undefined && !(seconds > 0)) throw new UsageError(`--timeout must be a positive number of seconds, got "${raw}"`, name);
        try {
          return await client.waitFor(key, { onProgress: (a) => bar.update(a), timeoutMs: seconds === undefined ? undefined : seconds * 1000 });
        } finally {
          bar.end();
        }
      },
    };
    return await spec.run(ctx);
  } catch (e) {
    return reportError(e, json, io, report);
  }
}

function unknownCommand(name: string): UsageError {
  const near = nearest(name, Object.keys(COMMANDS));
  return new UsageError(`unknown command "${name}"${near ? `; did you mean "${near}"?` : `; the commands are ${Object.keys(COMMANDS).join(', ')}`}`);
}

/** The error on stderr (its text, then what the command line adds), and as JSON on stdout with --json. */
function reportError(thrown: unknown, json: boolean, io: Io, report: ReportContext): number {
  const e = thrown instanceof Reported ? thrown.error : thrown;
  const hint = cliHint(e, report);
  io.stderr.write(`avatar: ${errorText(e)}\n${hint ? `  ${hint}\n` : ''}`);
  if (json && !(thrown instanceof Reported)) io.stdout.write(`${JSON.stringify(errorJson(e, hint), null, 2)}\n`);
  return e instanceof AvatarWaitTimeout ? EXIT.processing : EXIT.error;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
