import { describe, expect, it } from 'vitest';
import { isBlockedAddress, parseV6 } from './address-rules.js';

describe('webhook target address rules', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:7f00:1]',
    '::ffff:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::169.254.169.254',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::',
    '2001:0:4136:e378::1',
    '2001:db8::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'not-an-address',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );

  it('reads IPv6 forms', () => {
    expect(parseV6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseV6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseV6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseV6('1:2:3')).toBeNull();
    expect(parseV6('1::2::3')).toBeNull();
  });
});
