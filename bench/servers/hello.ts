import Fastify from 'fastify';

/** The baseline of the service bench: a bare fastify hello-world on the same machine. */
const app = Fastify();
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
