import { describe, expect, it } from 'vitest';
import { isBlockedAddress } from './address-rules.js';

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
    // The ranges one by one, at their edges.
    '0.255.255.255',
    '169.254.0.1',
    '169.254.255.255',
    '100.64.0.1',
    '100.127.255.255',
    'fc00::',
    'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    'fe80::',
    'febf:ffff::1',
    '::ffff:0.0.0.0',
    '::ffff:169.254.169.254',
    '::ffff:100.64.0.1',
    '[::ffff:10.0.0.1]',
    // Not an address at all.
    'not-an-address',
    '1:2:3',
    '1::2::3',
    '::ffff:1.2.3.256',
    '',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '192.169.0.1',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '1.0.0.0',
    '2606:4700::1111',
    '[2606:4700::1111]',
    '::ffff:8.8.8.8',
    '::ffff:93.184.216.34',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2a00:1450:4001:80b::200e',
  ])('allows the public address %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});
