import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { issueLicenceKey, licencePayloadSchema } from '../modules/licence/licence-key.js';

export const USAGE = `bogwan-license: the vendor's tool for Bogwan licence keys

  bogwan-license keygen --out DIR
      Writes a new vendor key pair: DIR/vendor-private.pem (keep it secret, outside
      any repository) and DIR/vendor-public.pem (give it to servers as
      BOGWAN_LICENSE_PUBLIC_KEY, or build it in). Never overwrites existing files.

  bogwan-license issue --private-key FILE --org NAME --sen NUMBER --server-id ID
                       --type TYPE --users N --purchase YYYY-MM-DD --maintenance YYYY-MM-DD
      Prints a licence key for one server. The server id is shown by
      GET /api/system/license/check and in the licence dialog.
`;

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs one command; answers the exit code. */
export function runLicenceVendor(argv: string[], io: CliIo): number {
  const [command, ...rest] = argv;
  try {
    if (command === 'keygen') return keygen(rest, io);
    if (command === 'issue') return issue(rest, io);
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.out(USAGE);
      return command === undefined ? 1 : 0;
    }
    io.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 1;
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function keygen(args: string[], io: CliIo): number {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true });
  if (!values.out) throw new Error('keygen needs --out DIR');
  const dir = path.resolve(values.out);
  const privateFile = path.join(dir, 'vendor-private.pem');
  const publicFile = path.join(dir, 'vendor-public.pem');
  for (const file of [privateFile, publicFile]) {
    if (fs.existsSync(file)) throw new Error(`${file} exists; refusing to overwrite a vendor key`);
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  fs.writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  io.out(`Wrote ${privateFile} (secret) and ${publicFile}\n`);
  return 0;
}

function issue(args: string[], io: CliIo): number {
  const names = ['private-key', 'org', 'sen', 'server-id', 'type', 'users', 'purchase', 'maintenance'] as const;
  const { values } = parseArgs({
    args,
    options: Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<(typeof names)[number], { type: 'string' }>,
    strict: true,
  });
  const missing = names.filter((name) => !values[name]);
  if (missing.length > 0) throw new Error(`issue needs ${missing.map((name) => `--${name}`).join(', ')}`);
  const privateKey = crypto.createPrivateKey(fs.readFileSync(path.resolve(values['private-key']!), 'utf8'));
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error('--private-key must be an Ed25519 private key (PEM)');
  const parsed = licencePayloadSchema.safeParse({
    org: values.org,
    sen: values.sen,
    serverId: values['server-id'],
    type: values.type,
    user: Number(values.users),
    purchase: values.purchase,
    maintenance: values.maintenance,
    iat: Math.floor(Date.now() / 1000),
  });
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => issue.path.join('.')).join(', ');
    throw new Error(`invalid value for: ${fields} (users is a whole number; dates are YYYY-MM-DD)`);
  }
  io.out(`${issueLicenceKey(parsed.data, privateKey)}\n`);
  return 0;
}
