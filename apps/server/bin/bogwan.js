#!/usr/bin/env node
// `npx bogwan admin …`: the operator's command line (built by `npm ci` / `npm run build`).
import '../dist/admin.js';
