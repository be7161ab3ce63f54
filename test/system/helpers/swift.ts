import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { freePort } from '../../../tools/harness/process.ts';

/**
 * A real S3-compatible store for the tests: an all-in-one OpenStack Swift (Debian's packages
 * swift, swift-proxy, swift-account, swift-container, swift-object, python3-lxml) with its s3api
 * middleware and tempauth, every server on 127.0.0.1, every file in one temporary directory.
 */
export interface SwiftS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* settings for a service process (without S3_BUCKET). */
  env: Record<string, string>;
  /** Makes a new bucket and returns its name. */
  createBucket(): Promise<string>;
  /** Keys of the objects under a prefix (first 1000). */
  list(bucket: string, prefix: string): Promise<string[]>;
  stop(): Promise<void>;
}

const SERVERS = ['account', 'container', 'object'] as const;

/** What every server of this all-in-one shares: loopback, one process, this user, this directory. */
const defaults = (root: string, port: number) => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
user = ${os.userInfo().username}
swift_dir = ${root}/etc
log_level = WARNING
`;

function serverConf(kind: (typeof SERVERS)[number], root: string, port: number) {
  return `${defaults(root, port)}devices = ${root}/srv
mount_check = false

[pipeline:main]
pipeline = ${kind}-server

[app:${kind}-server]
use = egg:swift#${kind}
${kind === 'object' ? '' : `[${kind}-replicator]\n[${kind}-updater]\n[${kind}-auditor]\n`}`;
}

function proxyConf(root: string, port: number, deadMemcache: number, user: string, key: string) {
  // tempauth insists on a memcache client; with none listening every lookup misses, which is fine here.
  return `${defaults(root, port)}
[pipeline:main]
pipeline = catch_errors proxy-logging cache s3api tempauth proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:catch_errors]
use = egg:swift#catch_errors

[filter:proxy-logging]
use = egg:swift#proxy_logging

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${deadMemcache}

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:tempauth]
use = egg:swift#tempauth
user_${user.replace(':', '_')} = ${key} .admin
`;
}

async function waitForHttp(url: string, child: ChildProcess, log: () => string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`swift exited: ${log()}`);
    try {
      await fetch(url);
      return;
    } catch {
      if (Date.now() > end) throw new Error(`swift did not start: ${log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function startSwift(): Promise<SwiftS3> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'swift-s3-'));
  fs.mkdirSync(path.join(root, 'etc'));
  fs.mkdirSync(path.join(root, 'srv', 'd1'), { recursive: true });
  const hash = crypto.randomBytes(8).toString('hex');
  fs.writeFileSync(path.join(root, 'etc', 'swift.conf'), `[swift-hash]\nswift_hash_path_suffix = ${hash}\nswift_hash_path_prefix = ${hash}\n\n[storage-policy:0]\nname = gold\ndefault = yes\n`);

  const ports = { account: await freePort(), container: await freePort(), object: await freePort(), proxy: await freePort(), memcache: await freePort() };
  for (const kind of SERVERS) {
    const builder = path.join(root, 'etc', `${kind}.builder`);
    execFileSync('swift-ring-builder', [builder, 'create', '10', '1', '1']);
    execFileSync('swift-ring-builder', [builder, 'add', `r1z1-127.0.0.1:${ports[kind]}/d1`, '100']);
    execFileSync('swift-ring-builder', [builder, 'rebalance']);
    fs.writeFileSync(path.join(root, 'etc', `${kind}-server.conf`), serverConf(kind, root, ports[kind]));
  }
  const accessKeyId = 'test:tester';
  const secretAccessKey = crypto.randomBytes(12).toString('hex');
  fs.writeFileSync(path.join(root, 'etc', 'proxy-server.conf'), proxyConf(root, ports.proxy, ports.memcache, accessKeyId, secretAccessKey));

  let output = '';
  const children = [...SERVERS, 'proxy' as const].map((kind) => {
    const child = spawn(`/usr/bin/swift-${kind}-server`, [path.join(root, 'etc', `${kind}-server.conf`)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    return child;
  });
  const endpoint = `http://127.0.0.1:${ports.proxy}`;
  const stop = async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    );
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    for (const [i, kind] of [...SERVERS, 'proxy'].entries()) {
      await waitForHttp(`http://127.0.0.1:${ports[kind as keyof typeof ports]}/healthcheck`, children[i]!, () => output);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const region = 'us-east-1';
  const s3 = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey } });
  const createBucket = async () => {
    const name = `avatars-${crypto.randomBytes(4).toString('hex')}`;
    await s3.send(new CreateBucketCommand({ Bucket: name }));
    return name;
  };
  const list = async (Bucket: string, Prefix: string) => ((await s3.send(new ListObjectsV2Command({ Bucket, Prefix }))).Contents ?? []).map((o) => o.Key!);
  return {
    createBucket,
    list,
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    env: { S3_ENDPOINT: endpoint, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey, S3_FORCE_PATH_STYLE: '1' },
    async stop() {
      s3.destroy();
      await stop();
    },
  };
}
