import { describe, expect, it } from 'vitest';
import { allowedHostsSchema, isIpLiteralHost } from './webhooks.js';

describe('allowed webhook hosts', () => {
  it('takes host names', () => {
    expect(allowedHostsSchema.parse({ hosts: [' Hooks.Internal ', 'localhost', 'ci-1.example.com'] }).hosts).toEqual([
      'hooks.internal',
      'localhost',
      'ci-1.example.com',
    ]);
  });

  it('refuses every spelling of an IP address, as a URL would read it', () => {
    for (const host of ['127.0.0.1', '10.0.0.8', '[::1]', '::1', '2130706433', '0x7f000001', '127.1', 'localhost.0x7f', 'hooks.internal.']) {
      const expected = host !== 'hooks.internal.';
      expect([host, isIpLiteralHost(host)]).toEqual([host, expected]);
    }
    const result = allowedHostsSchema.safeParse({ hosts: ['localhost', '127.0.0.1'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain('webhook_allowed_host_ip');
  });
});
