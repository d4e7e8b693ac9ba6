import * as checked from '@bogwan/contracts';
import { ZodType } from 'zod';
import { describe, expect, it, vi } from 'vitest';

// The built app imports the contracts with zod swapped for build/unchecked-zod.ts: the
// same module evaluated over inert schemas. Everything but the schemas must come out equal.

/** The contracts as the built app sees them, and the inert schema they are made of. */
async function uncheckedContracts(): Promise<{ contracts: Record<string, unknown>; inert: unknown }> {
  vi.resetModules();
  vi.doMock('zod', () => import('../../build/unchecked-zod'));
  try {
    const contracts = (await import('@bogwan/contracts')) as Record<string, unknown>;
    return { contracts, inert: (await import('zod')).z };
  } finally {
    vi.doUnmock('zod');
    vi.resetModules();
  }
}

/** A value with every schema (real or inert) and every function replaced by a marker, to compare the rest. */
function shapeOf(value: unknown, isSchema: (value: unknown) => boolean, seen = new Set<unknown>()): unknown {
  if (isSchema(value)) return '<schema>';
  if (typeof value === 'function') return '<function>';
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => shapeOf(item, isSchema, seen));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shapeOf(item, isSchema, seen)]));
}

describe('the contracts over unchecked zod', () => {
  it('keep every constant, rule and call description the web reads', async () => {
    const { contracts: unchecked, inert } = await uncheckedContracts();
    expect(Object.keys(unchecked).sort()).toEqual(Object.keys(checked).sort());
    const real = shapeOf({ ...checked }, (value) => value instanceof ZodType);
    const built = shapeOf(unchecked, (value) => value === inert);
    expect(built).toEqual(real);
    // The call table itself: methods and paths as the server registers them.
    expect((unchecked.apiCalls as typeof checked.apiCalls).trash_list).toMatchObject({
      method: checked.apiCalls.trash_list.method,
      path: checked.apiCalls.trash_list.path,
    });
  });

  it('answer what they were given, unchanged and unchecked', async () => {
    const { contracts: unchecked } = await uncheckedContracts();
    const schema = unchecked.userSchema as typeof checked.userSchema;
    const answer = { anything: 'goes' };
    expect(schema.parse(answer)).toBe(answer);
    expect(schema.safeParse(answer)).toEqual({ success: true, data: answer });
    // Still an inert schema after any chain of zod calls.
    expect(schema.extend({}).optional().parse(7)).toBe(7);
  });
});
