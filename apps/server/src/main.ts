import { ConfigError, loadConfig } from './config.js';
import { buildApp } from './app.js';

const SHUTDOWN_GRACE_MS = 10_000;

// The S3 SDK warns on Node.js 20 that its releases after January 2027 will need Node 22.
// That is for whoever picks the SDK version (docs/decisions.md), not for an operator: the
// version is fixed by the lockfile, and the product supports Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

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
    const token = await app.setupToken.issue();
    const url = `http://localhost:${config.port}/auth/login`;
    process.stderr.write(
      `\n  Bogwan is running, but no account exists yet.\n` +
        `  Open ${url} and create the first account with this one-time setup token:\n\n` +
        `      ${token}\n\n` +
        `  (also written to ${app.setupToken.file})\n\n`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Bogwan failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
