// Entry of `npx bogwan-license`: the vendor's key tool (see licence-vendor-commands.ts).
import { runLicenceVendor } from './licence-vendor-commands.js';

process.exitCode = runLicenceVendor(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
