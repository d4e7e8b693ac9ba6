import { finished, type Readable } from 'node:stream';

/** Bytes that may wait for the reader before the request is paused (a socket read brings at most 64 KiB). */
const READ_AHEAD = 256 * 1024;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The pieces of a request body, in order, as the socket delivers them: fed by the stream's
 * `data` events and paused while more than READ_AHEAD bytes wait to be taken. One step per
 * piece, where the stream's own async iterator takes several (a `readable` event on the
 * next tick, a `read()` that copies what has gathered into one buffer, a generator around
 * it), each step a promise and each promise a visit of the server's async hooks
 * (docs/decisions/files.md, "A chunk's body is read from the request's data events").
 * A piece waiting in the queue is handed over at once; the body's error (a client gone
 * mid-body) comes after the pieces that arrived before it. `return` stops listening and
 * leaves the stream as it is.
 */
export function piecesOf(stream: Readable): AsyncIterableIterator<Buffer> {
  let queue: Buffer[] = [];
  let head = 0;
  let queued = 0;
  let ended = false;
  let failure: Error | undefined;
  let waiting: { resolve: (step: IteratorResult<Buffer>) => void; reject: (error: Error) => void } | undefined;

  const take = (): IteratorResult<Buffer> => {
    const piece = queue[head]!;
    head++;
    if (head === queue.length) {
      queue = [];
      head = 0;
    }
    queued -= piece.length;
    if (queued < READ_AHEAD && stream.isPaused() && !ended) stream.resume();
    return { done: false, value: piece };
  };
  const wake = () => {
    const reader = waiting;
    if (!reader) return;
    if (head < queue.length) {
      waiting = undefined;
      reader.resolve(take());
    } else if (failure) {
      waiting = undefined;
      reader.reject(failure);
    } else if (ended) {
      waiting = undefined;
      reader.resolve(DONE);
    }
  };
  const onData = (piece: Buffer) => {
    queue.push(piece);
    queued += piece.length;
    if (queued >= READ_AHEAD) stream.pause();
    wake();
  };
  const stopWatching = finished(stream, (error) => {
    if (error) failure = error;
    else ended = true;
    wake();
  });
  stream.on('data', onData);

  return {
    next() {
      if (head < queue.length) return Promise.resolve(take());
      if (failure) return Promise.reject(failure);
      if (ended) return Promise.resolve(DONE);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    return() {
      stream.off('data', onData);
      stopWatching();
      ended = true;
      queue = [];
      head = 0;
      queued = 0;
      wake();
      return Promise.resolve(DONE);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
