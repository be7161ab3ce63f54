import { parseArgs } from 'node:util';

/** One option of a command: how it is parsed and how its help reads. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder of the value in the help, e.g. LIST. */
  value?: string;
  help: string;
  /** Shown in the help as "(default: ...)"; the command applies it. */
  default?: string;
  short?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** Options every command takes. */
export const COMMON_OPTIONS: OptionSpecs = {
  json: { type: 'boolean', help: 'print one JSON document on stdout (errors too)' },
  help: { type: 'boolean', short: 'h', help: "show the command's help" },
};

/** A mistake in the command line itself; `command` names the help that explains it. */
export class UsageError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Flags = Record<string, string | boolean | undefined>;

/** Parses a command's arguments against its options and the common ones; mistakes become UsageErrors that name the nearest option. */
export function parseOptions(command: string, argv: string[], specs: OptionSpecs): { flags: Flags; positionals: string[] } {
  const all = { ...COMMON_OPTIONS, ...specs };
  const options = Object.fromEntries(Object.entries(all).map(([name, o]) => [name, o.short ? { type: o.type, short: o.short } : { type: o.type }]));
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { flags: values as Flags, positionals };
  } catch (e) {
    throw usageOf(e as Error & { code?: string }, command, Object.keys(all));
  }
}

function usageOf(e: Error & { code?: string }, command: string, names: string[]): Error {
  const option = /'(-[^' ]*)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const near = nearest(option.replace(/^-+/, ''), names);
    return new UsageError(`unknown option ${option} for "avatar ${command}"${near ? `; did you mean --${near}?` : ''}`, command);
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return new UsageError(/does not take/.test(e.message) ? `option ${option} takes no value` : `option ${option} needs a value`, command);
  }
  return e;
}

/** Edit distance counting a swap of neighbours as one edit (the commonest typo), for suggestions. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate a mistyped word most likely meant: a prefix of it, or within a third of its length in edits. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const prefixed = candidates.filter((c) => word.length >= 2 && c.startsWith(word));
  if (prefixed.length === 1) return prefixed[0];
  const scored = candidates.map((c) => ({ c, d: distance(word, c) })).sort((x, y) => x.d - y.d);
  const best = scored[0];
  return best && best.d <= Math.max(1, Math.floor(word.length / 3)) ? best.c : undefined;
}
