import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { providedLater, requireDecorators, WiringError } from '../src/http/wiring.js';
import { registerDashboard } from '../src/modules/dashboard/dashboard.module.js';
import { registerFiles } from '../src/modules/files/files.module.js';
import { registerSearch } from '../src/modules/search/search.module.js';
import { registerSharing } from '../src/modules/shares/sharing.module.js';
import { registerSnapshots } from '../src/modules/snapshots/snapshots.module.js';
import { registerStorageSync } from '../src/modules/storage-sync/storage-sync.module.js';
import { registerTransfer } from '../src/modules/transfer/transfer.module.js';
import { registerAccounts } from '../src/modules/users/accounts.module.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/** A module's registration called on an app where nothing else is registered (its deps are never reached). */
type Registration = (app: FastifyInstance) => Promise<unknown>;
const none = {} as never;

/** Each module that takes something from modules registered before it, with what it declares. */
const MODULES: [string, Registration, string[]][] = [
  ['files', (app) => registerFiles(app, none), ['webhooks']],
  ['transfer', (app) => registerTransfer(app, none), ['fileTree', 'fileAccess', 'tasks', 'webhooks']],
  ['accounts', (app) => registerAccounts(app, none), ['db', 'blobStores', 'loginGuard']],
  ['snapshots', (app) => registerSnapshots(app, none), ['tasks', 'fileTree', 'fileAccess', 'blobStores', 'webhooks']],
  ['sharing', (app) => registerSharing(app, none), ['snapshots', 'webhooks']],
  ['storage-sync', (app) => registerStorageSync(app, none), ['blobStores', 'fileAccess', 'tasks']],
  ['search', (app) => registerSearch(app, none), ['fileTree', 'fileAccess', 'blobStores']],
  ['dashboard', (app) => registerDashboard(app, none), ['blobStores', 'snapshotSummary']],
];

describe('module wiring fails closed', () => {
  const apps: FastifyInstance[] = [];
  const bare = () => {
    const app = Fastify({ logger: false });
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close().catch(() => undefined);
  });

  it.each(MODULES)('refuses to register the %s module before what it needs', async (name, register, needs) => {
    const error = await register(bare()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WiringError);
    expect(error).toMatchObject({ module: name, missing: needs });
    expect(String(error)).toContain(`app.${needs[0]}`);
  });

  it('names only what is missing when part of a module’s needs is there', () => {
    const app = bare();
    app.decorate('fileTree', {} as never);
    expect(() => requireDecorators(app, 'search', ['fileTree', 'fileAccess'])).toThrow(new WiringError('search', ['fileAccess'], 'before it'));
  });

  it('refuses to boot when a dependency promised by a later module never arrives', async () => {
    const app = bare();
    const uploads = providedLater(app, 'webhooks', 'uploads');
    expect(() => uploads()).toThrow(WiringError);
    await expect(app.ready()).rejects.toThrow(/module 'webhooks' needs app\.uploads/);
  });

  it('boots, and answers the service, when the later module provides it', async () => {
    const app = bare();
    const uploads = providedLater(app, 'webhooks', 'uploads');
    const service = { name: 'uploads' };
    app.decorate('uploads', service as never);
    await app.ready();
    expect(uploads()).toBe(service);
  });
});

/**
 * Patterns by which a security check could be skipped when a service is not wired: a
 * decorator looked up "if present", optional chaining on a decorator or on a check's
 * method, a service getter that defaults to nothing, a check run only "if the member is
 * set". A missing webhook emitter is not a check (it only means nobody is told), so
 * lines about hooks/webhooks are exempt from the getter pattern.
 */
const FAIL_OPEN: { name: string; pattern: RegExp; exempt?: RegExp }[] = [
  { name: 'a decorator looked up if present (use requireDecorators or providedLater)', pattern: /\bhasDecorator\(/ },
  { name: 'optional chaining on an app decorator', pattern: /\bapp\.\w+\?\./ },
  {
    name: 'a check method called only if its service exists',
    pattern: /\?\.\s*(require|check|admit|covered|lockAbove|assert\w*|verify\w*|authorize\w*|allowed\w*)\(/,
  },
  { name: 'a service getter defaulting to nothing', pattern: /=\s*\(\)\s*=>\s*undefined\b/, exempt: /hooks|webhooks/i },
  { name: 'a check run only if its member is set', pattern: /\bthis\.(\w+)\s*\?\s*this\.\1\.\w+\(/ },
  {
    name: 'an early return when a security service is missing',
    pattern: /if\s*\(\s*!\s*(this\.)?\w*(secure|gate|guard|access|licen[cs]e|permission)\w*(\(\))?\s*(\)|\|\|)[^;{]*\breturn\b/i,
  },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Instance methods and properties of Fastify itself, not decorators a module provides. */
const FASTIFY_OWN = new Set(['register', 'decorate', 'addHook', 'log', 'hasDecorator', 'withTypeProvider', 'addContentTypeParser', 'server']);

describe('every module declares the decorators it reads', () => {
  const moduleFiles = sourceFiles(path.join(SRC, 'modules')).filter((f) => f.endsWith('.module.ts'));

  it.each(moduleFiles.map((f) => [path.relative(SRC, f), f]))('%s', (_name, file) => {
    const code = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .join('\n');
    const read = new Set([...code.matchAll(/\bapp\.(\w+)/g)].map((m) => m[1]!).filter((name) => !FASTIFY_OWN.has(name)));
    const own = new Set([...code.matchAll(/app\.decorate\('(\w+)'/g)].map((m) => m[1]!));
    const later = new Set([...code.matchAll(/providedLater\(app, '[\w-]+', '(\w+)'\)/g)].map((m) => m[1]!));
    const declared = new Set(
      [...code.matchAll(/requireDecorators\(app, '[\w-]+', \[([^\]]*)\]\)/g)].flatMap((m) => [...m[1]!.matchAll(/'(\w+)'/g)].map((n) => n[1]!)),
    );
    const undeclared = [...read].filter((name) => !own.has(name) && !later.has(name) && !declared.has(name));
    expect(undeclared).toEqual([]);
  });
});

describe('no fail-open wiring in apps/server/src', () => {
  it('finds the source files', () => {
    expect(sourceFiles(SRC).length).toBeGreaterThan(100);
  });

  it.each(FAIL_OPEN)('has no $name', ({ pattern, exempt }) => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      if (file.endsWith(path.join('http', 'wiring.ts'))) continue;
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (pattern.test(line) && !exempt?.test(line)) found.push(`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });

  it('catches the patterns it names (the fail-open code this project had)', () => {
    const old = [
      "moves: new MovesService(tree, access, events, () => app.webhooks, () => (app.hasDecorator('secureFolders') ? app.secureFolders : undefined))",
      'app.snapshots?.restored.listen((ids) => expire(ids));',
      'return this.gate ? this.gate.admit(user, nodes) : Promise.resolve(FREE_TICKET);',
      'private readonly secure: () => SecureFolderLookup | undefined = () => undefined,',
      'if (!secure || source.lock === 1) return;',
      'await this.licence?.assertValid();',
    ];
    for (const line of old) expect([line, FAIL_OPEN.some(({ pattern, exempt }) => pattern.test(line) && !exempt?.test(line))]).toEqual([line, true]);
  });
});
