import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { piecesOf } from './request-pieces.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('piecesOf', () => {
  it('hands over the pieces in order, whether they arrive before or after they are asked for, then ends', async () => {
    const body = new PassThrough();
    const pieces = piecesOf(body);
    body.write(Buffer.from('ab'));
    body.write(Buffer.from('cd'));
    await tick();
    const early = [await pieces.next(), await pieces.next()];
    const pending = pieces.next();
    body.end(Buffer.from('ef'));
    const late = await pending;
    expect([...early, late].map((step) => String(step.value))).toEqual(['ab', 'cd', 'ef']);
    expect(await pieces.next()).toEqual({ done: true, value: undefined });
  });

  it('pauses the request while a quarter MiB waits to be read, and reads on once it is taken', async () => {
    const body = new PassThrough({ highWaterMark: 1024 });
    const pieces = piecesOf(body);
    for (let i = 0; i < 5; i++) body.write(Buffer.alloc(64 * 1024, i));
    await tick();
    expect(body.isPaused()).toBe(true);
    const taken = [];
    for (let i = 0; i < 5; i++) taken.push((await pieces.next()).value as Buffer);
    expect(body.isPaused()).toBe(false);
    expect(taken.map((piece) => piece[0])).toEqual([0, 1, 2, 3, 4]);
    body.end();
    expect((await pieces.next()).done).toBe(true);
  });

  it('fails after the pieces that came before a client went away mid-body', async () => {
    const body = new PassThrough();
    const pieces = piecesOf(body);
    body.write(Buffer.from('first'));
    await tick();
    body.destroy(new Error('aborted'));
    await tick();
    expect(String((await pieces.next()).value)).toBe('first');
    await expect(pieces.next()).rejects.toThrow('aborted');
  });

  it('fails a reader waiting when the body closes before its end', async () => {
    const body = new PassThrough();
    const pieces = piecesOf(body);
    const waiting = pieces.next();
    body.destroy();
    await expect(waiting).rejects.toThrow();
  });

  it('stops listening on return and leaves the stream open', async () => {
    const body = new PassThrough();
    const pieces = piecesOf(body);
    expect(await pieces.return!()).toEqual({ done: true, value: undefined });
    expect(body.listenerCount('data')).toBe(0);
    expect(body.destroyed).toBe(false);
    expect((await pieces.next()).done).toBe(true);
  });
});
