import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('defaults to port 3000 and a SQLite file in ./data', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.database).toEqual({ dialect: 'sqlite', file: path.resolve('./data/bogwan.sqlite') });
    expect(c.accessTokenTtlSeconds).toBe(900);
    expect(c.refreshTokenTtlSeconds).toBe(14 * 86400);
    expect(c.loginLockMinutes).toBe(10);
    expect(c.smtpUrl).toBeUndefined();
  });

  it('switches to PostgreSQL with a postgres:// URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      dialect: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
  });

  it('reads durations with units', () => {
    expect(loadConfig({ BOGWAN_ACCESS_TOKEN_TTL: '15m' }).accessTokenTtlSeconds).toBe(900);
    expect(loadConfig({ BOGWAN_ACCESS_TOKEN_TTL: '2d' }).accessTokenTtlSeconds).toBe(172800);
  });

  it('names every bad variable in one error', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', BOGWAN_SECRET: 'short' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('BOGWAN_SECRET');
    }
  });

  it('trusts no proxy by default, one hop for true, N hops for a number, or listed proxies', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ BOGWAN_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ BOGWAN_TRUST_PROXY: '0' }).trustProxy).toBe(false);
    // `true` never means "trust every hop": the client would choose its own address.
    expect(loadConfig({ BOGWAN_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ BOGWAN_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ BOGWAN_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ BOGWAN_TRUST_PROXY: '10.0.0.1, 172.16.0.0/12,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '172.16.0.0/12',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses a bad BOGWAN_TRUST_PROXY at start-up, naming it', () => {
    for (const bad of ['maybe', '-1', '33', '1.5', '10.0.0.300', '10.0.0.0/33', '10.0.0.1,', 'proxy.example.com', '::1/129']) {
      expect(() => loadConfig({ BOGWAN_TRUST_PROXY: bad }), bad).toThrow(/BOGWAN_TRUST_PROXY: false, true/);
    }
  });
});
