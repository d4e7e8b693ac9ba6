#!/usr/bin/env node
// Assembles src/chunker.wat and writes src/chunker-wasm.ts (the module, base64).
// The assembler is not a dependency of the project; fetch it for the run:
//   npm i --no-save wabt@1.0.39 && node packages/vault/scripts/build-chunker-wasm.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import initWabt from 'wabt';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const wabt = await initWabt();
const module = wabt.parseWat('chunker.wat', fs.readFileSync(path.join(src, 'chunker.wat'), 'utf8'));
module.validate();
const { buffer } = module.toBinary({});
const base64 = Buffer.from(buffer).toString('base64');
fs.writeFileSync(
  path.join(src, 'chunker-wasm.ts'),
  `// Generated from chunker.wat by scripts/build-chunker-wasm.mjs; do not edit.\n` + `export const CHUNKER_WASM = '${base64}';\n`,
);
console.log(`chunker-wasm.ts: ${buffer.length} bytes of WebAssembly`);
