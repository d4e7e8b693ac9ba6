import { execFile, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAppPassword } from './app-passwords-helpers.js';
import { call, describeEachDialectAndBackend, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';

const run = promisify(execFile);

/**
 * Real WebDAV clients against the server: Debian's rclone (webdav backend, vendor "other")
 * and cadaver, driven as a user would. In CI (or with BOGWAN_REQUIRE_DAV_CLIENTS=1) a
 * missing client fails the run instead of skipping these suites.
 */
const clientsRequired = process.env.CI === 'true' || process.env.BOGWAN_REQUIRE_DAV_CLIENTS === '1';
const has = (command: string) => !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
const clientsMissing = ['rclone', 'cadaver'].filter((command) => !has(command));

const s3Server = useS3();

describe('WebDAV clients are installed', () => {
  it.runIf(clientsRequired)('rclone and cadaver are on the PATH (apt-get install -y rclone cadaver)', () => {
    expect(clientsMissing).toEqual([]);
  });
});

/** The test tree: Korean names in NFC and NFD, spaces and URL-special characters, an empty file, a few MB. */
function writeTree(dir: string): void {
  const files: Record<string, Buffer> = {
    '보고서.txt': Buffer.from('분기 보고서\n'.repeat(200)),
    [path.join('한글 폴더', '회의록 정리.md'.normalize('NFD'))]: Buffer.from('# 회의록\n결정 사항\n'),
    [path.join('한글 폴더', '하위', '데이터.bin')]: crypto.randomBytes(3 * 1024 * 1024 + 17),
    [path.join('한글 폴더', '빈 파일.txt')]: Buffer.alloc(0),
    [path.join('english', 'a+b & c (1).txt')]: Buffer.from('plus and ampersand'),
    [path.join('english', '100% #hash.txt')]: Buffer.from('percent and hash'),
    [path.join('자모'.normalize('NFD'), '설명.txt')]: Buffer.from('폴더 이름이 NFD'),
  };
  for (const [name, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, path.dirname(name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytes);
  }
}

/** Every file under `dir` as NFC relative path → SHA-256. */
function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of fs.readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = path.join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else
        out[rel.normalize('NFC')] = crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(dir, rel)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

describeEachDialectAndBackend('rclone and cadaver over WebDAV on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let token: string;
  let work: string;
  let rcloneEnv: NodeJS.ProcessEnv;
  const root = `팀 자료 ${backend}`;
  const email = 'master@example.com';
  const test = it.skipIf(clientsMissing.length > 0);

  const rclone = (...args: string[]) => run('rclone', ['--retries', '1', '--low-level-retries', '2', ...args], { env: rcloneEnv, maxBuffer: 16 * 1024 * 1024 });
  const listing = async (folder: string) => {
    const res = await call(server, apiCalls.file_list, { token, query: { path: folder, limit: 100 } });
    expect(res.status).toBe(200);
    return res.body.items.map((item) => item.name).sort();
  };

  beforeAll(async () => {
    if (clientsMissing.length > 0) return;
    server = await startServer(dialect, s3Server().env);
    token = (await setupMaster(server)).token;
    if (backend === 'cloud') {
      expect((await call(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
      const bucket = await s3Server().bucket();
      expect((await call(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket } } })).status).toBe(200);
    }
    expect((await call(server, apiCalls.folder_create, { token, body: { name: root, path: '/', backend } })).status).toBe(200);
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-dav-clients-'));
    const { password } = await makeAppPassword(server, token, 'rclone');
    const { stdout: obscured } = await run('rclone', ['obscure', password]);
    fs.writeFileSync(path.join(work, 'rclone.conf'), '');
    rcloneEnv = {
      ...process.env,
      HOME: work,
      RCLONE_CONFIG: path.join(work, 'rclone.conf'),
      RCLONE_CONFIG_BOGWAN_TYPE: 'webdav',
      RCLONE_CONFIG_BOGWAN_URL: `${server.url}/dav/`,
      RCLONE_CONFIG_BOGWAN_VENDOR: 'other',
      RCLONE_CONFIG_BOGWAN_USER: email,
      RCLONE_CONFIG_BOGWAN_PASS: obscured.trim(),
    };
    // cadaver reads its credentials from ~/.netrc.
    const { password: cadaverPassword } = await makeAppPassword(server, token, 'cadaver');
    fs.writeFileSync(path.join(work, '.netrc'), `machine 127.0.0.1 login ${email} password ${cadaverPassword}\n`, { mode: 0o600 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('rclone copy up, check byte for byte, copy down, and the files are in the web listing', async () => {
    const up = path.join(work, 'up');
    writeTree(up);
    await rclone('copy', up, `bogwan:${root}`);
    // --download compares the bytes (the webdav backend of vendor "other" has no hashes).
    await rclone('check', '--download', up, `bogwan:${root}`);

    const down = path.join(work, 'down');
    await rclone('copy', `bogwan:${root}`, down);
    expect(digestTree(down)).toEqual(digestTree(up));

    expect(await listing(`/${root}`)).toEqual(['english', '보고서.txt', '자모', '한글 폴더'].sort());
    expect(await listing(`/${root}/한글 폴더`)).toEqual(['빈 파일.txt', '하위', '회의록 정리.md'].sort());
    expect(await listing(`/${root}/english`)).toEqual(['100% #hash.txt', 'a+b & c (1).txt'].sort());
  }, 180_000);

  test('rclone sync deletes on the server what was deleted locally, and adds what is new', async () => {
    const up = path.join(work, 'sync');
    writeTree(up);
    await rclone('sync', up, `bogwan:${root}`);
    fs.rmSync(path.join(up, 'english', 'a+b & c (1).txt'));
    fs.rmSync(path.join(up, '한글 폴더', '하위'), { recursive: true });
    fs.writeFileSync(path.join(up, 'english', '새 파일.txt'), '새로 생긴 파일');
    await rclone('sync', up, `bogwan:${root}`);
    await rclone('check', '--download', up, `bogwan:${root}`);
    expect(await listing(`/${root}/english`)).toEqual(['100% #hash.txt', '새 파일.txt'].sort());
    expect(await listing(`/${root}/한글 폴더`)).toEqual(['빈 파일.txt', '회의록 정리.md'].sort());
    // Deleted over WebDAV as on the web: into the trash.
    const trash = await call(server, apiCalls.trash_list, { token });
    expect(JSON.stringify(trash.body)).toContain('a+b & c (1).txt');
  }, 180_000);

  test('rclone with the account password is refused', async () => {
    const { stdout: obscured } = await run('rclone', ['obscure', GOOD_PASSWORD]);
    const refused = rclone('lsd', 'bogwan:', '--webdav-pass', obscured.trim());
    await expect(refused).rejects.toMatchObject({ stderr: expect.stringMatching(/401|Unauthorized/i) });
  }, 60_000);

  test('cadaver makes a folder, puts a file with a Korean name and lists it', async () => {
    const local = path.join(work, '카다버 메모.txt');
    fs.writeFileSync(local, 'cadaver로 올린 파일\n');
    const script = [`cd "${root}"`, 'mkcol cadaver', 'cd cadaver', `put "${local}" "카다버 메모.txt"`, 'ls', 'quit', ''].join('\n');
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      const child = execFile('cadaver', [`${server.url}/dav/`], { env: { ...process.env, HOME: work } }, (error, stdout) =>
        error ? reject(error) : resolve({ stdout }),
      );
      child.stdin!.end(script);
    });
    expect(stdout).toContain('카다버 메모.txt');
    const got = await call(server, apiCalls.file_download, { token, query: { path: `/${root}/cadaver/카다버 메모.txt` } });
    expect(got.status).toBe(200);
    expect(got.text).toBe('cadaver로 올린 파일\n');
  }, 60_000);
});
