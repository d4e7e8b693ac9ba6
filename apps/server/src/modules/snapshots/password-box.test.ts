import { describe, expect, it } from 'vitest';
import { PasswordBox } from './password-box.js';

describe('repository password sealing', () => {
  const box = new PasswordBox('s'.repeat(48));

  it('opens what it sealed, and the sealed text does not contain the password', () => {
    const sealed = box.seal('correct horse battery', 'plan-1');
    expect(sealed).not.toContain('correct');
    expect(box.open(sealed, 'plan-1')).toBe('correct horse battery');
    expect(box.seal('correct horse battery', 'plan-1')).not.toBe(sealed);
  });

  it('refuses another secret, another plan, or a changed byte', () => {
    const sealed = box.seal('password123', 'plan-1');
    expect(() => new PasswordBox('t'.repeat(48)).open(sealed, 'plan-1')).toThrow();
    expect(() => box.open(sealed, 'plan-2')).toThrow();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString('base64url');
    expect(() => box.open(parts.join('.'), 'plan-1')).toThrow();
  });
});
