import os from 'node:os';
import { blobCodecInUse } from '@bogwan/vault';
import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';

const SHUTDOWN_GRACE_MS = 10_000;

// The S3 SDK warns on Node.js 20 that its releases after January 2027 will need Node 22.
// That is for whoever picks the SDK version (docs/decisions.md), not for an operator: the
// version is fixed by the lockfile, and the product supports Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// libuv's thread pool (4 threads by default) runs every file read, open, fsync and WebCrypto
// call: under load a download's reads, the WAL's sync and `/api/health`'s probe queued behind
// one another. Set before the pool's first use; an operator's own value is kept
// (docs/decisions/platform.md, "A larger thread pool").
process.env.UV_THREADPOOL_SIZE ??= '16';

/** The young generation's limit the memory figures assume: how `npm run serve`, the image and the unit start the server. */
const SEMI_SPACE_FLAG = '--max-semi-space-size=8';

/** True when the process was started with a young-generation limit (on its command line or in NODE_OPTIONS). */
function youngGenerationLimited(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => arg.startsWith('--max-semi-space-size'));
}

/**
 * A line in the logger's JSON shape for when there is no logger yet (the configuration
 * failed) or any more (start-up failed): every line the server writes is JSON.
 */
function writeJsonLine(level: 'fatal' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  const numeric = { fatal: 60, error: 50 }[level];
  process.stderr.write(`${JSON.stringify({ level: numeric, time: Date.now(), pid: process.pid, hostname: os.hostname(), ...fields, msg })}\n`);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);
  app.log.info(blobCodecInUse(), 'backup engine blob codec');
  if (!youngGenerationLimited())
    app.log.warn(
      { expected: SEMI_SPACE_FLAG },
      'started without a young-generation limit: memory peaks run ~16 MiB higher than documented (start with `npm run serve`)',
    );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (await app.setupToken.pending()) {
    const setupToken = await app.setupToken.issue();
    const address = app.server.address();
    const port = address && typeof address === 'object' ? address.port : config.port;
    const setupUrl = `http://localhost:${port}/auth/login`;
    // Warn, so that it shows at the default level and above it; the token is also in the file.
    app.log.warn(
      { setupUrl, setupToken, setupTokenFile: app.setupToken.file },
      `First run: no account exists yet. Open ${setupUrl} and create the first account with the one-time setup token ${setupToken}`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    writeJsonLine('fatal', error.message);
  } else {
    writeJsonLine('fatal', 'Bogwan failed to start', {
      err: error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : String(error),
    });
  }
  process.exit(1);
});
