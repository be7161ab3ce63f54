import pino from 'pino';
import { loadConfig } from './config.ts';
import { startService } from './runtime/service.ts';
import { createSpeechEngine, parseModes } from './speech/index.ts';

/** `npm start`: the service on PORT; embedded under DATA_DIR, or by ROLE, DATABASE_URL and S3_* one process of a scaled-out deployment (docs/DEPLOY.md). */
const config = loadConfig();
const logger = pino({ level: config.logLevel });
const engine = createSpeechEngine();
const service = await startService({ config, logger, synthesizer: { parseModes, synthesize: engine.synthesize } });
await service.app.listen({ port: config.port, host: config.host });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing requests and the current jobs');
    await service.stop();
    await engine.close();
    process.exit(0);
  });
}
