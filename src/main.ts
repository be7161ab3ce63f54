import pino from 'pino';
import { loadConfig } from './config.ts';
import { demoLogin } from './runtime/bootstrap.ts';
import { startService } from './runtime/service.ts';
import { startupLines } from './runtime/startup-message.ts';
import { createSpeechEngine, parseModes, voiceCatalog } from './speech/index.ts';

/** `npm start`: the service on PORT; embedded under DATA_DIR, or by ROLE, DATABASE_URL and S3_* one process of a scaled-out deployment (docs/DEPLOY.md). */
const config = loadConfig();
const logger = pino({ level: config.logLevel });
const engine = createSpeechEngine();
const service = await startService({ config, logger, synthesizer: { parseModes, voiceCatalog, synthesize: engine.synthesize } });
const listening = await service.app.listen({ port: config.port, host: config.host });
if (config.logFormat === 'text') {
  for (const line of startupLines(listening, { role: config.role, made: service.demo, demo: config.databaseUrl ? undefined : demoLogin(config.dataDir) })) console.log(line);
} else if (service.demo) {
  logger.info({ account: service.demo.accountId, credentials: service.demo.file }, 'demo account made; its key, secret and portal login are in the credentials file');
}

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
