#!/bin/sh
':'; //; exec node --max-semi-space-size=4 "$0" "$@"
// The line above is for the shell (`npx bogwan-vault`, or the file run as a program): it
// replaces itself with Node given this file and one flag (`env -S` would do it, but
// BusyBox's env, as on Alpine, has no -S). To Node it is a string and a comment.
// The flag keeps V8's young generation at 4 MiB per half: a backup's short-lived objects
// otherwise grow it to 16 MiB per half, ~7–12 MiB more at every command's peak and no
// faster (docs/decisions.md, "Backup engine: round 11"). `node bogwan-vault.js` runs
// without it.
//
// Threads that allocate from now on share the C allocator's arenas, and blocks of 1 MiB or
// more are mapped for themselves, so freed chunks and blobs go back to the system at once
// (native/release-memory.c; docs/decisions.md, "Backup engine: round 11"). This comes
// first: libuv's pool threads start with the first file system call.
import { createRequire } from 'node:module';

try {
  createRequire(import.meta.url)('../build/Release/release_memory.node').tuneAllocator(1024 * 1024);
} catch {
  // Not built (the install warns): the allocator keeps its defaults.
}
// File system calls (lstat while walking, reads, restore's span reads) go through
// libuv's thread pool; 4 threads leave a cold disk serving 4 inodes at a time.
// The pool starts with the first call, so this must come before the CLI loads.
process.env.UV_THREADPOOL_SIZE ??= '16';
// The S3 SDK's notice that its releases after January 2027 need Node 22 concerns the
// version the lockfile pins (docs/decisions.md), not someone restoring a backup.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
await import('../dist/cli.js');
