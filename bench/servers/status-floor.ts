import Fastify from 'fastify';
import crypto from 'node:crypto';
import { parseAuthorization } from '../../src/api/auth-header.ts';
import { digestSigner } from '../../src/protocol/digest.ts';

/**
 * The floor of the service bench: the least a fastify app must do to answer an authenticated status
 * poll. It verifies the ServiceDigest with the service's own parser and signer and refuses replays, but
 * keeps the nonces and the status body in memory, and has no logger, metrics or database. The service's
 * status polls cannot be cheaper than this.
 */
const sign = digestSigner('sha256', process.env.KEY!, process.env.SECRET!);
const body: unknown = JSON.parse(process.env.BODY!);
const spent = new Set<string>();

const app = Fastify();
app.addHook('onRequest', (request, reply, done) => {
  const auth = parseAuthorization(request.headers.authorization);
  const digest = auth && auth.key === process.env.KEY ? sign(auth.nonce, request.url) : '';
  if (!auth || digest.length !== auth.digest.length || !crypto.timingSafeEqual(Buffer.from(digest), Buffer.from(auth.digest)) || spent.has(auth.nonce)) {
    void reply.code(401).send({ stt: 'NOK', msg: '10032 authentication fail' });
    return;
  }
  spent.add(auth.nonce);
  done();
});
app.get('/v2/avatar/:key/status', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
