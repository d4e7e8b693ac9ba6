import type { FastifyBaseLogger } from 'fastify';

/** How long a readiness check waits for Redis before calling it failed. */
const PING_TIMEOUT_MS = 2_000;

type RedisClient = {
  ping(): Promise<string>;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  isReady: boolean;
};

/**
 * A connection of its own to answer "does Redis answer?", opened at the first check
 * (the client is loaded only when Redis is configured) and closed with the server.
 */
export class RedisProbe {
  private client: Promise<RedisClient> | undefined;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** True when Redis answers PING within the timeout. */
  async ping(): Promise<boolean> {
    try {
      const client = await this.connect();
      return await withTimeout(client.ping().then((answer) => answer === 'PONG'));
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    const client = await this.client?.catch(() => undefined);
    this.client = undefined;
    if (client?.isReady) await client.quit().catch(() => undefined);
  }

  private connect(): Promise<RedisClient> {
    this.client ??= (async () => {
      const { createClient } = await import('redis');
      // No reconnect loop of its own: each check tries again while the client reconnects.
      const client = createClient({ url: this.url, socket: { connectTimeout: PING_TIMEOUT_MS } }) as unknown as RedisClient;
      client.on('error', (error) => this.log.debug({ err: error }, 'redis (readiness probe) error'));
      await withTimeout(client.connect());
      return client;
    })();
    this.client.catch(() => {
      this.client = undefined;
    });
    return this.client;
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('redis did not answer in time')), PING_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
