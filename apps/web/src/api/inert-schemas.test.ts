import fs from 'node:fs';
import path from 'node:path';
import { parseAst, transformWithOxc } from 'vite';
import { describe, expect, it } from 'vitest';
import { withInertSchemas } from '../../build/inert-schemas-plugin';

const CONTRACTS = path.resolve(import.meta.dirname, '../../../../packages/contracts/src');

/** A source as the built app compiles it: TypeScript removed, then schema chains reduced. */
async function compiled(source: string): Promise<string> {
  const { code } = await transformWithOxc(source, 'contract.ts');
  return withInertSchemas(code, parseAst(code) as never);
}

describe('the contracts compiled with inert schemas', () => {
  it('keep constants and calls, and make every schema the inert one', async () => {
    const source = [
      "import { z } from 'zod';",
      "export const ROLES = ['USER', 'ADMIN'] as const;",
      'export const userSchema = z.object({ role: z.enum(ROLES), name: z.string().trim().min(1) }).strict();',
      'export const listSchema = z.array(userSchema).max(LIMIT);',
      "export const call = defineCall({ method: 'GET', path: '/api/users', response: listSchema, query: z.object({ q: z.string() }) });",
      'export function ruled(check: (v: string) => string | null) { return z.string().superRefine((v, ctx) => check(v)); }',
      'export const extended = userSchema.extend({ extra: z.number() });',
    ].join('\n');
    const code = await compiled(source);
    expect(code).not.toMatch(/\bz\s*[.(]/);
    expect(code).toContain(`ROLES = ["USER", "ADMIN"]`);
    expect(code).toContain('userSchema = z;');
    expect(code).toContain('listSchema = z;');
    expect(code).toMatch(/defineCall\(\{\s*method: "GET",\s*path: "\/api\/users",\s*response: listSchema,\s*query: z\s*\}\)/);
    expect(code).toMatch(/return z;/);
    expect(code).toMatch(/userSchema\.extend\(\{ extra: z \}\)/);
  });

  it('leave no zod call in any contracts source', async () => {
    const files = fs.readdirSync(CONTRACTS, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const code = await compiled(fs.readFileSync(path.join(CONTRACTS, file), 'utf8'));
      expect(code, file).not.toMatch(/\bz\s*[.(]/);
    }
  });
});
