import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/config.js';
import { startServer, type TestServer } from './harness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
  stage: number;
}

/** The Dockerfile's instructions (continuation lines joined, comments dropped), each with its stage. */
function dockerfile(): Instruction[] {
  const joined = read('Dockerfile').replace(/\\\n/g, ' ');
  let stage = -1;
  const out: Instruction[] = [];
  for (const line of joined.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [keyword = '', ...rest] = trimmed.split(/\s+/);
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    out.push({ keyword: keyword.toUpperCase(), args: rest.join(' '), stage });
  }
  return out;
}

describe('how the server is started', () => {
  // The memory figures (bench/RESULTS.md, "Scale") assume this young-generation limit;
  // main.ts warns when the server runs without one (docs/decisions/platform.md).
  const flag = '--max-semi-space-size=8';
  const launch = `node ${flag} apps/server/dist/main.js`;

  it('gives Node the same young-generation limit in npm, the image and the systemd unit', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.serve).toBe(launch);
    expect(scripts.start).toBe(`npm run build && ${launch}`);
    const cmd = dockerfile().filter((s) => s.keyword === 'CMD');
    expect(JSON.parse(cmd.at(-1)!.args)).toEqual(launch.split(' '));
    expect(read('deploy/bogwan.service')).toMatch(new RegExp(`^ExecStart=/usr/bin/${launch.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(read('apps/server/src/main.ts')).toContain(`'${flag}'`);
  });
});

describe('Dockerfile', () => {
  const steps = dockerfile();
  const stages = steps.filter((s) => s.keyword === 'FROM');
  const last = stages.length - 1;
  const inStage = (stage: number, keyword: string) => steps.filter((s) => s.stage === stage && s.keyword === keyword);

  it('builds in stages on the Debian Node 20 image, the toolchain in the build stage only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const baseArg = steps.find((s) => s.keyword === 'ARG' && s.args.startsWith('NODE_IMAGE='));
    expect(baseArg?.args).toBe('NODE_IMAGE=node:20-bookworm-slim');
    for (const from of stages) expect(from.args).toMatch(/^\$\{NODE_IMAGE\} AS \w+$/);
    const runs = (stage: number) =>
      inStage(stage, 'RUN')
        .map((s) => s.args)
        .join('\n');
    expect(runs(0)).toMatch(/apt-get install .*g\+\+/);
    expect(runs(0)).toContain('npm ci');
    expect(runs(last)).not.toMatch(/g\+\+|build-essential|\bmake\b|python3|npm (ci|install)/);
    const names = stages.map((s) => /AS (\w+)$/.exec(s.args)?.[1]);
    for (const copy of inStage(last, 'COPY')) {
      const from = /--from=(\S+)/.exec(copy.args)?.[1];
      expect(from, `final stage copies only from a build stage: ${copy.args}`).toBeDefined();
      expect(names.slice(0, last)).toContain(from);
    }
  });

  it('runs as a user of its own, keeps data on a volume and checks readiness', () => {
    const users = inStage(last, 'USER');
    expect(users).toHaveLength(1);
    expect(users[0]!.args).not.toMatch(/^(root|0)(:|$)/);
    const lastSteps = steps.filter((s) => s.stage === last);
    expect(lastSteps.findIndex((s) => s.keyword === 'USER')).toBeLessThan(lastSteps.findIndex((s) => s.keyword === 'CMD'));
    expect(inStage(last, 'VOLUME').map((s) => s.args)).toEqual(['["/data"]']);
    expect(
      inStage(last, 'ENV')
        .map((s) => s.args)
        .join(' '),
    ).toMatch(/BOGWAN_DATA_DIR=\/data/);
    expect(inStage(last, 'HEALTHCHECK')[0]?.args).toContain('/api/health/ready');
    expect(inStage(last, 'EXPOSE').map((s) => s.args)).toEqual(['3000']);
  });

  it('keeps machine-made and secret files out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['.git', '**/node_modules', '**/dist', 'data', '.env', 'packages/vault/build']) expect(ignored).toContain(entry);
  });

  describe('its HEALTHCHECK command, run as written against a real server', () => {
    let server: TestServer;
    const healthcheck = JSON.parse(/CMD (\[.*\])$/.exec(inStage(last, 'HEALTHCHECK')[0]!.args)![1]!) as string[];
    // Asynchronously: the server answers from this very process.
    const probe = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(healthcheck[0]!, healthcheck.slice(1), { env: { ...process.env, PORT: new URL(server.url).port }, stdio: 'ignore' });
        child.on('close', (code) => resolve(code));
      });
    beforeAll(async () => {
      server = await startServer('sqlite');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('passes while the server is ready and fails while its blob store cannot write', async () => {
      expect(await probe()).toBe(0);
      const tmp = path.join(server.dataDir, 'blobs', 'tmp');
      fs.rmSync(tmp, { recursive: true });
      fs.writeFileSync(tmp, 'not a directory');
      try {
        expect(await probe()).toBe(1);
      } finally {
        fs.rmSync(tmp);
        fs.mkdirSync(tmp);
      }
    });
  });
});

/** A compose file's `environment` with `${VAR:?…}` / `${VAR:-default}` filled in as compose would. */
function environmentOf(service: { environment?: Record<string, string> }, given: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      String(value).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_all, variable: string, kind?: string, fallback?: string) => {
        if (given[variable] !== undefined) return given[variable]!;
        if (kind === '-') return fallback ?? '';
        throw new Error(`${variable} must be set`);
      }),
    ]),
  );
}

describe('compose files', () => {
  const secrets = { BOGWAN_SECRET: 'x'.repeat(48), POSTGRES_PASSWORD: 'pg-password', MINIO_ROOT_PASSWORD: 'minio-password' };

  it('compose.yaml: Bogwan on PostgreSQL, Redis and MinIO, each waited for, data on named volumes', () => {
    const compose = parseYaml(read('compose.yaml')) as {
      services: Record<
        string,
        {
          image?: string;
          build?: string;
          depends_on?: Record<string, { condition: string }>;
          volumes?: string[];
          environment?: Record<string, string>;
          healthcheck?: unknown;
        }
      >;
      volumes: Record<string, unknown>;
    };
    expect(Object.keys(compose.services).sort()).toEqual(['bogwan', 'minio', 'minio-bucket', 'postgres', 'redis']);
    const bogwan = compose.services.bogwan!;
    expect(bogwan.build).toBe('.');
    expect(bogwan.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      'minio-bucket': { condition: 'service_completed_successfully' },
    });
    for (const name of ['postgres', 'redis', 'minio']) expect(compose.services[name]!.healthcheck, name).toBeDefined();

    const env = environmentOf(bogwan, secrets);
    const config = loadConfig({ ...env, BOGWAN_DATA_DIR: '/data' });
    expect(config.database).toEqual({ dialect: 'postgres', url: 'postgres://bogwan:pg-password@postgres:5432/bogwan' });
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.s3).toMatchObject({ endpoint: 'http://minio:9000', secretAccessKey: 'minio-password', forcePathStyle: true });
    expect(config.secret).toBe(secrets.BOGWAN_SECRET);
    // The same password on both sides of each connection.
    expect(environmentOf(compose.services.postgres!, secrets).POSTGRES_PASSWORD).toBe('pg-password');
    expect(environmentOf(compose.services.minio!, secrets).MINIO_ROOT_USER).toBe(config.s3.accessKeyId);
    // Refuses to start without the secrets rather than with empty ones.
    expect(() => environmentOf(bogwan, { ...secrets, BOGWAN_SECRET: undefined as unknown as string })).toThrow(/BOGWAN_SECRET/);

    const named = Object.values(compose.services).flatMap((s) => (s.volumes ?? []).map((v) => v.split(':')[0]!));
    expect(named.sort()).toEqual(Object.keys(compose.volumes).sort());
    expect(bogwan.volumes).toEqual(['bogwan-data:/data']);
  });

  it('compose.embedded.yaml: one container, SQLite and files on its volume', () => {
    const compose = parseYaml(read('compose.embedded.yaml')) as {
      services: Record<string, { volumes?: string[]; environment?: Record<string, string> }>;
      volumes: Record<string, unknown>;
    };
    expect(Object.keys(compose.services)).toEqual(['bogwan']);
    const config = loadConfig({ ...environmentOf(compose.services.bogwan!, {}), BOGWAN_DATA_DIR: '/data' });
    expect(config.database).toEqual({ dialect: 'sqlite', file: '/data/bogwan.sqlite' });
    expect(config.redisUrl).toBeUndefined();
    expect(compose.services.bogwan!.volumes).toEqual(['bogwan-data:/data']);
    expect(Object.keys(compose.volumes)).toEqual(['bogwan-data']);
  });
});

describe('deploy/bogwan.service', () => {
  const unit = read('deploy/bogwan.service');
  const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

  it('runs as a dedicated user, may write to the data directory only, and restarts on failure', () => {
    expect(values('User')).toEqual(['bogwan']);
    expect(values('ProtectSystem')).toEqual(['strict']);
    expect(values('NoNewPrivileges')).toEqual(['yes']);
    expect(values('Restart')).toEqual(['on-failure']);
    const dataDir = values('Environment')
      .map((v) => /^BOGWAN_DATA_DIR=(.+)$/.exec(v)?.[1])
      .find(Boolean);
    expect(dataDir).toBe('/var/lib/bogwan');
    expect(values('ReadWritePaths')).toEqual([dataDir]);
    expect(values('ExecStart')[0]).toMatch(/ apps\/server\/dist\/main\.js$/);
  });

  it.skipIf(!fs.existsSync('/usr/bin/systemd-analyze'))('passes systemd-analyze verify without a warning', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-unit-'));
    try {
      fs.writeFileSync(path.join(dir, 'bogwan.service'), unit);
      const result = spawnSync('systemd-analyze', ['verify', path.join(dir, 'bogwan.service')], { encoding: 'utf8' });
      // Lines about the host (no such user here, a missing binary) are not about the unit's syntax.
      const problems = result.stderr
        .split('\n')
        .filter((line) => line.trim() && !/Failed to resolve user|is not executable|not found|Unit .* not found/.test(line));
      expect(problems).toEqual([]);
      expect(result.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf');
  const block = (location: string) => new RegExp(`location ${location.replace(/[/.]/g, '\\$&')} \\{([^}]*)\\}`).exec(conf)?.[1] ?? '';

  it('terminates TLS, takes 10 MiB chunks, upgrades the realtime socket and forwards the client address', () => {
    expect(conf).toMatch(/listen 443 ssl;/);
    expect(conf).toMatch(/ssl_certificate\s+\S+;/);
    const bodySize = /^\s*client_max_body_size (\d+)m;/m.exec(conf);
    expect(Number(bodySize?.[1])).toBeGreaterThan(10);
    expect(block('/dav/')).toMatch(/client_max_body_size 0;/);
    const socket = block('/socket.io/');
    expect(socket).toMatch(/proxy_set_header Upgrade \$http_upgrade;/);
    expect(socket).toMatch(/proxy_set_header Connection \$connection_upgrade;/);
    // nginx drops the server's proxy_set_header lines in a block that sets its own.
    expect(socket).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(conf).toMatch(/^\s{4}proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/m);
    expect(conf).toContain('BOGWAN_TRUST_PROXY=true');
    expect(loadConfig({ BOGWAN_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
  });
});
