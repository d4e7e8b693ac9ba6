#!/usr/bin/env node
// `npx bogwan-license …`: runs the bundled vendor tool (build first: npm run build -w @bogwan/server).
import '../dist/licence-vendor.js';
