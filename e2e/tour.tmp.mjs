// Screenshot tour (not part of the product): starts the built server, seeds data, captures screens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
const root = '/work/main';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tour-'));
const port = 3917;
const url = `http://localhost:${port}`;
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], { cwd: root, env: { ...process.env, PORT: String(port), BOGWAN_DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, stdio: 'ignore' });
for (let i = 0; i < 200; i++) { try { if ((await fetch(`${url}/api/health`)).ok) break; } catch {} await new Promise(r => setTimeout(r, 150)); }
const MASTER = { name: '김보관', email: 'master@example.com', password: 'Bogwan!2026' };
await fetch(`${url}/api/auth/setup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: fs.readFileSync(path.join(dataDir, 'setup-token'), 'utf8').trim(), ...MASTER }) });
const login = await (await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: MASTER.email, password: MASTER.password }) })).json();
const token = login.token;
const api = async (method, p, body) => { const r = await fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: body && JSON.stringify(body) }); return r.json().catch(() => null); };
await api('POST', '/api/file', { name: '영업팀', path: '/' });
await api('POST', '/api/file', { name: '회의록', path: '/영업팀' });
await api('POST', '/api/user', { name: '이사용', email: 'lee@example.com', password: 'Member!2026x' });
await api('POST', '/api/group', { name: '기획팀', description: '기획 업무' });
const form = new FormData();
for (const [k, v] of Object.entries({ path: '/영업팀', fileName: '보고서.txt', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: '26' })) form.append(k, v);
form.append('file', new Blob([Buffer.from('분기 보고서 내용입니다 hello')]), '보고서.txt');
await fetch(`${url}/api/file/upload?fileName=${encodeURIComponent('보고서.txt')}&chunkIndex=0`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
const routes = (process.argv[2] ?? '/storage/영업팀,/shared,/requests,/dashboard,/event,/log,/trash,/snapshot,/restore,/search?keyword=보고').split(',');
for (const locale of ['ko', 'en']) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: locale === 'ko' ? 'ko-KR' : 'en-US' });
  const page = await context.newPage();
  await page.goto(`${url}/auth/login`);
  await page.evaluate((auth) => localStorage.setItem('auth', JSON.stringify(auth)), { user: login.user, token });
  for (const r of routes) {
    await page.goto(`${url}${locale === 'en' ? '/en' : ''}${r}`);
    await page.waitForTimeout(2000);
    const name = `${locale}-${r.replace(/[^a-z]/gi, '_')}.png`;
    await page.screenshot({ path: `/tmp/tour/${name}` });
    console.log(name);
  }
  await context.close();
}
await browser.close();
child.kill();
fs.rmSync(dataDir, { recursive: true, force: true });
