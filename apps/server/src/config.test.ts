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
});
