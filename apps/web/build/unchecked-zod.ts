// The production web build's stand-in for zod (vite.config.ts aliases `zod` to this file
// for `vite build` only; the dev server and the unit tests keep the real zod).
//
// Why: the contracts build their schemas when imported, so every page carried all of zod
// (~28 KB gzip) only to check answers the server has already checked: the server
// serialises every answer through the same contract schema (fastify-type-provider-zod's
// serializerCompiler), from the same release. Here a schema is inert: any chain of zod
// calls builds one, `parse` answers its input as it is and `safeParse` succeeds.
// The web must therefore never rely on a schema to judge input of its own (an address, a
// form): it checks those against the contracts' constant lists instead.
// `unchecked-zod.test.ts` imports the contracts through this file and requires every
// export that is not a schema (constants, the call table's methods and paths) to be equal.

type Inert = ((...args: unknown[]) => Inert) & { readonly [key: string | symbol]: unknown };

/** What a successful `safeParse` answers. */
interface Passed {
  success: true;
  data: unknown;
}

const passThrough = (data: unknown): unknown => data;
const passed = (data: unknown): Passed => ({ success: true, data });

// One shared inert value: calling it or reading any property of it gives it back, except
// for the few members whose answers code reads.
const inert: Inert = new Proxy(function schema() {} as unknown as Inert, {
  get(_target, key) {
    switch (key) {
      case 'parse':
        return passThrough;
      case 'parseAsync':
        return async (data: unknown) => data;
      case 'safeParse':
        return passed;
      case 'safeParseAsync':
        return async (data: unknown) => passed(data);
      // Not a promise, not a primitive: `await schema` or `${schema}` must not loop.
      case 'then':
        return undefined;
      case Symbol.toPrimitive:
        return () => 'schema';
      default:
        return inert;
    }
  },
  apply: () => inert,
  construct: () => inert,
});

/** zod's namespace (`import { z } from 'zod'`), every member inert. */
export const z: Inert = inert;

export default inert;
