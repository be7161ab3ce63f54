import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Files } from '../../domain/ports.ts';

export interface S3Settings {
  endpoint?: string;
  /** The endpoint clients reach for presigned links, when it differs from `endpoint` (a private network name). */
  publicEndpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Objects deleted at once by `deletePrefix` (one request each: not every S3-compatible store takes batch deletes). */
const DELETE_CONCURRENCY = 8;

const notFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

function client(s: S3Settings, endpoint: string | undefined): S3Client {
  const config: S3ClientConfig = {
    region: s.region,
    forcePathStyle: s.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible stores often reject the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (endpoint) config.endpoint = endpoint;
  if (s.accessKeyId && s.secretAccessKey) config.credentials = { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey };
  return new S3Client(config);
}

/**
 * Files as objects in one bucket, keyed by their relative path. A PUT replaces an object whole, so
 * readers never see half a file; links are presigned GETs that the store itself checks (signature
 * and expiry), carrying the download's content type and file name.
 */
export function s3Files(s: S3Settings): Files & { reachable(): Promise<void>; close(): void } {
  const s3 = client(s, s.endpoint);
  const signer = s.publicEndpoint ? client(s, s.publicEndpoint) : s3;
  const Bucket = s.bucket;

  /** The objects under a prefix (as a folder), one listing page at a time. */
  async function* objectsUnder(prefix: string) {
    const Prefix = prefix.endsWith('/') ? prefix : `${prefix}/`;
    let ContinuationToken: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      yield page.Contents ?? [];
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  const getObject = async (Key: string) => {
    try {
      return await s3.send(new GetObjectCommand({ Bucket, Key }));
    } catch (e) {
      if (notFound(e)) return undefined;
      throw e;
    }
  };

  return {
    async put(Key, data) {
      const body = data instanceof Uint8Array ? data : Buffer.concat(data);
      await s3.send(new PutObjectCommand({ Bucket, Key, Body: body, ContentLength: body.byteLength }));
    },
    async putFromFile(Key, localPath) {
      const { size } = await fsp.stat(localPath);
      await s3.send(new PutObjectCommand({ Bucket, Key, Body: fs.createReadStream(localPath), ContentLength: size }));
      await fsp.rm(localPath, { force: true });
    },
    async get(Key) {
      const object = await getObject(Key);
      return object && (await object.Body!.transformToByteArray());
    },
    async open(Key) {
      const object = await getObject(Key);
      return object && { size: Number(object.ContentLength ?? 0), stream: object.Body as Readable };
    },
    async exists(Key) {
      try {
        await s3.send(new HeadObjectCommand({ Bucket, Key }));
        return true;
      } catch (e) {
        if (notFound(e)) return false;
        throw e;
      }
    },
    async deletePrefix(prefix) {
      for await (const page of objectsUnder(prefix)) {
        const keys = page.map((o) => o.Key!);
        for (let i = 0; i < keys.length; i += DELETE_CONCURRENCY) {
          await Promise.all(keys.slice(i, i + DELETE_CONCURRENCY).map((Key) => s3.send(new DeleteObjectCommand({ Bucket, Key }))));
        }
      }
    },
    // Object storage has no folders: the children are the first segments of the keys under the prefix.
    async children(folder) {
      const Prefix = folder.endsWith('/') ? folder : `${folder}/`;
      const latest = new Map<string, number>();
      for await (const page of objectsUnder(Prefix)) {
        for (const o of page) {
          const name = o.Key!.slice(Prefix.length).split('/')[0]!;
          latest.set(name, Math.max(latest.get(name) ?? 0, o.LastModified?.getTime() ?? 0));
        }
      }
      return [...latest].map(([name, modifiedAt]) => ({ name, modifiedAt }));
    },
    async link(Key, { ttl, fileName, contentType }) {
      const name = fileName.replace(/[^A-Za-z0-9._@-]/g, '_');
      const command = new GetObjectCommand({ Bucket, Key, ResponseContentType: contentType, ResponseContentDisposition: `attachment; filename="${name}"` });
      return getSignedUrl(signer, command, { expiresIn: ttl });
    },
    /** Throws unless the bucket answers (readiness). */
    async reachable() {
      await s3.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      s3.destroy();
      if (signer !== s3) signer.destroy();
    },
  };
}
