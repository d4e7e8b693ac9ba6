export * from './enums.js';
export * from './file-types.js';
export * from './limits.js';
export * from './messages.js';
export * from './rules.js';
export * from './calls/common.js';
export * from './calls/auth.js';
export * from './calls/system.js';
