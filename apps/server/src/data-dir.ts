import fs from 'node:fs';

/**
 * Creates the data directory readable by the server's account only (0700) and narrows an
 * existing one to that: it holds the database, the server secret, the setup token and
 * everything uploaded, none of which other accounts on the machine may read.
 */
export function prepareDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
}
