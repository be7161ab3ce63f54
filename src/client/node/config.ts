import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What the `avatar` command line needs to reach the service. */
export interface CliConfig {
  host: string;
  key: string;
  secret: string;
}

type Env = Record<string, string | undefined>;

/** `$XDG_CONFIG_HOME/avatar-service/config.json`, else `~/.config/avatar-service/config.json`. */
export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'avatar-service', 'config.json');
}

export async function readConfigFile(env: Env = process.env): Promise<Partial<CliConfig>> {
  try {
    const parsed = JSON.parse(await fs.readFile(configPath(env), 'utf8')) as Partial<CliConfig>;
    return { host: parsed.host, key: parsed.key, secret: parsed.secret };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${configPath(env)}: ${(e as Error).message}`);
  }
}

/** The file's values, each overridden by AVATAR_HOST, AVATAR_KEY, AVATAR_SECRET when set. */
export async function loadConfig(env: Env = process.env): Promise<CliConfig> {
  const file = await readConfigFile(env);
  const config = { host: env.AVATAR_HOST || file.host, key: env.AVATAR_KEY || file.key, secret: env.AVATAR_SECRET || file.secret };
  const missing = (['host', 'key', 'secret'] as const).filter((name) => !config[name]);
  if (missing.length) throw new Error(`no ${missing.join(', ')} configured: run "avatar init" or set AVATAR_HOST, AVATAR_KEY, AVATAR_SECRET`);
  return config as CliConfig;
}

/** Where a setting comes from: its AVATAR_* variable when that is set, else the config file. */
export function settingSource(name: keyof CliConfig, env: Env = process.env): string {
  const variable = `AVATAR_${name.toUpperCase()}`;
  return env[variable] ? variable : configPath(env);
}

/** Writes the file readable by its owner only (0600, folder 0700), also when it existed with wider rights. */
export async function saveConfig(config: CliConfig, env: Env = process.env): Promise<string> {
  const file = configPath(env);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  await fs.writeFile(partial, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(partial, 0o600);
  await fs.rename(partial, file);
  return file;
}
