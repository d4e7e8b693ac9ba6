#!/usr/bin/env node
// File system calls (lstat while walking, reads, restore's span reads) go through
// libuv's thread pool; 4 threads leave a cold disk serving 4 inodes at a time.
// The pool starts with the first call, so this must come before the CLI loads.
process.env.UV_THREADPOOL_SIZE ??= '16';
// The S3 SDK's notice that its releases after January 2027 need Node 22 concerns the
// version the lockfile pins (docs/decisions.md), not someone restoring a backup.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
await import('../dist/cli.js');
