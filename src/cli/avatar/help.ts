import type { CommandSpec } from './commands.ts';
import { COMMON_OPTIONS, type OptionSpecs } from './options.ts';

/** The help of `avatar --help`: every command with its summary. */
export function generalHelp(commands: Readonly<Record<string, CommandSpec>>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    'avatar: the command line of the avatar service',
    '',
    'Usage: avatar COMMAND [ARGUMENTS] [OPTIONS]',
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --json (one JSON document on stdout) and --help.',
    '"avatar COMMAND --help" (or "avatar help COMMAND") shows its arguments, options and defaults.',
    'Start with "avatar init": it saves the service address, key and secret.',
    'Credentials: $XDG_CONFIG_HOME/avatar-service/config.json (else ~/.config/avatar-service/config.json),',
    'overridden by AVATAR_HOST, AVATAR_KEY and AVATAR_SECRET.',
    'Exit codes: 0 success, 1 error, 2 still processing.',
  ].join('\n');
}

function optionLines(options: OptionSpecs): string[] {
  const heads = Object.entries(options).map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}${o.short ? `, -${o.short}` : ''}`, o] as const);
  const width = Math.max(...heads.map(([head]) => head.length));
  return heads.map(([head, o]) => `  ${head.padEnd(width)}  ${o.help}${o.default ? ` (default: ${o.default})` : ''}`);
}

/** The help of one command: usage, summary, its options with their defaults, notes. */
export function commandHelp(name: string, c: CommandSpec): string {
  return [
    `Usage: avatar ${name}${c.args ? ` ${c.args}` : ''}${Object.keys(c.options).length ? ' [OPTIONS]' : ''}`,
    '',
    `${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.`,
    '',
    'Options:',
    ...optionLines({ ...c.options, ...COMMON_OPTIONS }),
    ...(c.notes?.length ? ['', ...c.notes] : []),
  ].join('\n');
}
