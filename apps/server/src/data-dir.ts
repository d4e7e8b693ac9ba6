import fs from 'node:fs';

/**
 * Creates the data directory readable by the server's account only (0700) and narrows an
 * existing one to that: it holds the database, the server secret, the setup token and
 * everything uploaded, none of which other accounts on the machine may read.
 */
export function prepareDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  ownerOnly(dataDir, 0o700);
}

/**
 * Sets `mode` on an existing file or directory. One owned by another account (a volume
 * mounted for the server) cannot be changed: the server still starts and says so.
 */
export function ownerOnly(file: string, mode: number): void {
  try {
    fs.chmodSync(file, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code !== 'EPERM') throw error;
    const current = (fs.statSync(file).mode & 0o777).toString(8);
    process.emitWarning(
      `${file} is mode ${current} and not owned by this account, so it could not be made ${mode.toString(8)}: other accounts on this machine may read it`,
    );
  }
}
