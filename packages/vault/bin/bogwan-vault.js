#!/usr/bin/env node
// File system calls (lstat while walking, reads, restore's span reads) go through
// libuv's thread pool; 4 threads leave a cold disk serving 4 inodes at a time.
// The pool starts with the first call, so this must come before the CLI loads.
process.env.UV_THREADPOOL_SIZE ??= '16';
await import('../dist/cli.js');
