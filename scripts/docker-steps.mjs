#!/usr/bin/env node
// Performs the Dockerfile's build steps on this host, without Docker: reads the Dockerfile,
// runs its RUN commands and COPY steps in order, in a clean clone of the committed sources
// (one folder per stage standing in for its file system), then starts the final stage's CMD
// with its ENV and runs the HEALTHCHECK command until the server is ready.
//
//   node scripts/docker-steps.mjs [--system] [--keep]
//
// --system  also runs the steps that change the host itself (apt-get, groupadd/useradd,
//           paths outside the stage); without it they are printed and skipped.
// --keep    leaves the work folder for a look afterwards.
// Exit code 0 when the started server passed its HEALTHCHECK.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const system = process.argv.includes('--system');
const keep = process.argv.includes('--keep');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-docker-steps-'));
const log = (message) => console.log(`[docker-steps] ${message}`);

/** Instructions with continuation lines joined and comments dropped. */
function instructions(text) {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** `K=V K2="V 2"` pairs of ENV/ARG. */
function pairs(args) {
  return Object.fromEntries([...args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)].map((m) => [m[1], m[3] ?? m[2]]));
}

/** A step that would change this machine rather than the stage's own files. */
const hostStep = (command) => /^(apt-get|apt|groupadd|useradd)\b/.test(command.trim());

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function removeIgnored(context) {
  const patterns = fs
    .readFileSync(path.join(context, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const pattern of patterns) {
    if (pattern.startsWith('**/')) {
      const name = pattern.slice(3);
      const walk = (dir) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.name === name) fs.rmSync(full, { recursive: true, force: true });
          else if (entry.isDirectory()) walk(full);
        }
      };
      walk(context);
    } else if (!/[*?]/.test(pattern)) {
      fs.rmSync(path.join(context, pattern), { recursive: true, force: true });
    }
  }
}

async function main() {
  const context = path.join(work, 'context');
  log(`clean clone of the committed sources into ${context}`);
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repo, context], { stdio: 'inherit' });
  // Docker reads the Dockerfile and .dockerignore before it leaves them out of the context.
  const steps = instructions(fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8'));
  removeIgnored(context);
  const stages = new Map();
  let stage;
  const inStage = (p) => path.join(stage.root, p.startsWith('/') ? p : path.join(stage.workdir, p));

  for (const { keyword, args } of steps) {
    switch (keyword) {
      case 'ARG':
        break;
      case 'FROM': {
        const name = /AS (\w+)$/i.exec(args)?.[1] ?? String(stages.size);
        stage = { name, root: path.join(work, 'stages', name), workdir: '/', env: {}, cmd: undefined, healthcheck: undefined, user: undefined };
        fs.mkdirSync(stage.root, { recursive: true });
        stages.set(name, stage);
        log(`stage ${name} (${args})`);
        break;
      }
      case 'WORKDIR':
        stage.workdir = args;
        fs.mkdirSync(inStage('.'), { recursive: true });
        break;
      case 'ENV':
        Object.assign(stage.env, pairs(args));
        break;
      case 'COPY': {
        const from = /--from=(\S+)/.exec(args)?.[1];
        const [src, dst] = args.replace(/--\S+/g, '').trim().split(/\s+/);
        const source = from ? path.join(stages.get(from).root, src) : path.join(context, src);
        fs.mkdirSync(path.dirname(inStage(dst)), { recursive: true });
        fs.cpSync(source, inStage(dst), { recursive: true, verbatimSymlinks: true });
        log(`COPY ${args}`);
        break;
      }
      case 'RUN': {
        if (hostStep(args) && !system) {
          log(`RUN skipped (changes the host; --system runs it): ${args}`);
          break;
        }
        log(`RUN ${args}`);
        const started = Date.now();
        const run = spawnSync('bash', ['-euo', 'pipefail', '-c', args], { cwd: inStage('.'), env: { ...process.env, ...stage.env }, stdio: 'inherit' });
        if (run.status !== 0) throw new Error(`RUN failed (${run.status}): ${args}`);
        log(`  done in ${Math.round((Date.now() - started) / 1000)} s`);
        break;
      }
      case 'USER':
        stage.user = args;
        log(`USER ${args}: the server runs as the current user here`);
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(/CMD (\[.*\])$/.exec(args)[1]);
        break;
      case 'CMD':
        stage.cmd = JSON.parse(args);
        break;
      case 'VOLUME':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`docker-steps does not know ${keyword}`);
    }
  }

  // Start the final stage as `docker run -v <data>:/data` would, on a free port.
  const port = await freePort();
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  const env = { ...process.env, ...stage.env, PORT: String(port), HOST: '127.0.0.1', BOGWAN_DATA_DIR: dataDir };
  log(`starting ${stage.cmd.join(' ')} on port ${port}`);
  const logFile = path.join(work, 'server.log');
  const out = fs.openSync(logFile, 'w');
  const server = spawn(stage.cmd[0], stage.cmd.slice(1), { cwd: inStage('.'), env, stdio: ['ignore', out, out] });
  let ready = false;
  for (let attempt = 0; attempt < 60 && !ready && server.exitCode === null; attempt++) {
    const probe = spawnSync(stage.healthcheck[0], stage.healthcheck.slice(1), { env, timeout: 10_000 });
    ready = probe.status === 0;
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode === null ? server.on('exit', resolve) : resolve()));
  const lines = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
  const notJson = lines.filter((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  log(`server log: ${lines.length} lines, ${notJson.length} not JSON${notJson.length ? `: ${notJson[0]}` : ''}`);
  log(ready ? 'HEALTHCHECK passed: the server is ready' : `HEALTHCHECK never passed; last lines:\n${lines.slice(-10).join('\n')}`);
  return ready && notJson.length === 0;
}

main()
  .then((ok) => {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
    else log(`work folder kept: ${work}`);
    process.exit(ok ? 0 : 1);
  })
  .catch((error) => {
    console.error(`[docker-steps] ${error.message}`);
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
    process.exit(1);
  });
