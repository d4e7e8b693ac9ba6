import type { FastifyInstance } from 'fastify';

/** A module was registered without something it declared it needs: the server does not start. */
export class WiringError extends Error {
  constructor(
    readonly module: string,
    readonly missing: readonly string[],
    when: string,
  ) {
    super(`module '${module}' needs ${missing.map((m) => `app.${m}`).join(', ')}, which no module had decorated ${when}`);
    this.name = 'WiringError';
  }
}

type Decorator = keyof FastifyInstance & string;

/**
 * Declares what a module takes from modules registered before it. Throws a WiringError
 * at registration when any is missing, so a re-ordering in app.ts stops the boot instead
 * of leaving a check out: no module asks "is this service there?" at request time.
 */
export function requireDecorators(app: FastifyInstance, module: string, names: readonly Decorator[]): void {
  const missing = names.filter((name) => !app.hasDecorator(name));
  if (missing.length > 0) throw new WiringError(module, missing, 'before it');
}

/**
 * A dependency on a module registered later (the two need each other): answers a getter
 * and checks, once every module is registered (onReady, before the server listens), that
 * the decorator exists; the boot fails if not. The getter never answers undefined: read
 * before that, or without it, it throws.
 */
export function providedLater<K extends Decorator>(app: FastifyInstance, module: string, name: K): () => FastifyInstance[K] {
  app.addHook('onReady', async () => {
    if (!app.hasDecorator(name)) throw new WiringError(module, [name], 'by the time the server started');
  });
  return () => {
    if (!app.hasDecorator(name)) throw new WiringError(module, [name], 'when it was first used');
    return app[name];
  };
}
