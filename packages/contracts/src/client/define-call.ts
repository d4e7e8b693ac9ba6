import type { z } from 'zod';

/** The HTTP methods of the JSON API. */
export type CallMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of the HTTP API: its method, its path (`:name` for a path parameter) and the
 * schemas of what it takes and answers. The server registers the same schemas on the route;
 * the web client and the integration tests call through this description.
 */
export interface ApiCall<
  M extends CallMethod = CallMethod,
  P extends string = string,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
  F extends boolean = boolean,
> {
  readonly method: M;
  readonly path: P;
  /** JSON body; a `form` call takes a FormData (multipart) instead. */
  readonly body: B;
  readonly query: Q;
  /** The answer on success; undefined when it is not JSON (a file, a stream, no body). */
  readonly response: R;
  readonly form: F;
}

/** Describes one call; the table in `api-calls.ts` is made of these. */
export function defineCall<
  const M extends CallMethod,
  const P extends string,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  F extends boolean = false,
>(call: { method: M; path: P; body?: B; query?: Q; response?: R; form?: F }): ApiCall<M, P, B, Q, R, F> {
  return {
    method: call.method,
    path: call.path,
    body: call.body as B,
    query: call.query as Q,
    response: call.response as R,
    form: (call.form ?? false) as F,
  };
}

/** The names of a path's `:name` parameters. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

type ParamsInput<P extends string> = [PathParamNames<P>] extends [never] ? { params?: never } : { params: Record<PathParamNames<P>, string> };

/** A multipart body (the browser's FormData), described by the one method the types need. */
export interface FormBody {
  append(name: string, value: unknown, fileName?: string): void;
}

type BodyInput<B, F> = F extends true
  ? { body: FormBody }
  : B extends z.ZodType
    ? undefined extends z.input<B>
      ? { body?: z.input<B> }
      : { body: z.input<B> }
    : { body?: never };

type QueryInput<Q> = Q extends z.ZodType ? (Record<never, never> extends z.input<Q> ? { query?: z.input<Q> } : { query: z.input<Q> }) : { query?: never };

/** What a caller gives a call: its path parameters, body and query, each typed by the contract. */
export type CallInput<C extends ApiCall> = ParamsInput<C['path']> & BodyInput<C['body'], C['form']> & QueryInput<C['query']>;

/** What a call answers on success (void when the answer is not JSON). */
export type CallOutput<C extends ApiCall> = C['response'] extends z.ZodType ? z.output<C['response']> : void;

/** The call's path with its parameters filled in (each URL-encoded). */
export function callPath(call: ApiCall, params: Record<string, string> | undefined): string {
  return call.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${call.method} ${call.path}: missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

/** A query as URL search parameters: undefined values left out, arrays repeated, the rest as text. */
export function callSearch(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = item instanceof Date ? item.toISOString() : String(item);
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
    }
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}
