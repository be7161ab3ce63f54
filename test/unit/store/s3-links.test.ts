import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { s3Files } from '../../../src/store/files/s3-files.ts';

const settings = {
  endpoint: 'http://objects.internal:8080', bucket: 'avatars', region: 'us-east-1',
  accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', forcePathStyle: true,
};

describe('S3 file store links', () => {
  it('presigns a GET of the object with the lifetime, content type and file name', async () => {
    const files = s3Files(settings);
    const url = new URL(await files.link('avatars/k1/packages/maya.zip', { ttl: 300, fileName: 'k1_maya.zip', contentType: 'application/zip', baseUrl: 'http://ignored' }));
    files.close();
    assert.equal(url.origin, 'http://objects.internal:8080');
    assert.equal(url.pathname, '/avatars/avatars/k1/packages/maya.zip');
    assert.equal(url.searchParams.get('X-Amz-Expires'), '300');
    assert.equal(url.searchParams.get('response-content-type'), 'application/zip');
    assert.equal(url.searchParams.get('response-content-disposition'), 'attachment; filename="k1_maya.zip"');
    assert.match(url.searchParams.get('X-Amz-Credential') ?? '', /^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    assert.match(url.searchParams.get('X-Amz-Signature') ?? '', /^[0-9a-f]{64}$/);
  });

  it('signs for the public endpoint when one is set, and keeps odd file names out of the header', async () => {
    const files = s3Files({ ...settings, publicEndpoint: 'https://files.example.com' });
    const url = new URL(await files.link('speech/x/speech.wav', { ttl: 60, fileName: 'a "b"\r\n.wav', contentType: 'audio/wav', baseUrl: '' }));
    files.close();
    assert.equal(url.origin, 'https://files.example.com');
    assert.equal(url.searchParams.get('response-content-disposition'), 'attachment; filename="a__b___.wav"');
  });
});
