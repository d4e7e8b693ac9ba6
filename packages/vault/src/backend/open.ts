import type { Backend } from './backend.js';
import { LocalBackend } from './local.js';
import { S3Backend } from './s3.js';

/** Opens `s3://bucket/prefix` (settings from the environment) or a directory path. */
export function openBackend(repo: string, env: NodeJS.ProcessEnv = process.env): Backend {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(repo);
  if (!match) return new LocalBackend(repo);
  return new S3Backend({
    bucket: match[1]!,
    prefix: match[2] ?? '',
    endpoint: env.BOGWAN_VAULT_S3_ENDPOINT,
    region: env.AWS_REGION,
    accessKeyId: env.AWS_ACCESS_KEY_ID,
    secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
  });
}
