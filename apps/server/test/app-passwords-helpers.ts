import { apiCalls } from '@bogwan/contracts';
import { call, GOOD_PASSWORD, type HttpTarget } from './harness.js';

/** Makes an app password for the account of `token` through the real call; answers its id and the password (shown once). */
export async function makeAppPassword(server: HttpTarget, token: string, name = `client ${Math.random().toString(36).slice(2, 8)}`) {
  const res = await call(server, apiCalls.app_password_create, { token, body: { name, currentPassword: GOOD_PASSWORD } });
  if (res.status !== 201) throw new Error(`app password not made: ${res.status} ${res.text}`);
  return res.body;
}

/** The `Authorization` header of HTTP Basic for an e-mail and a password. */
export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`, 'utf8').toString('base64')}`;
