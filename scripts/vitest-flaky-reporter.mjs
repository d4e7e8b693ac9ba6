// A Vitest reporter that writes the name of every test that failed and then passed on its
// retry (CI allows one) to the file named by BOGWAN_FLAKY_FILE, one per line, so `npm test`
// can print them above its totals as it does for the end-to-end tests.
import fs from 'node:fs';
import path from 'node:path';

export default class FlakyReporter {
  onTestCaseResult(testCase) {
    const file = process.env.BOGWAN_FLAKY_FILE;
    if (!file || !testCase.diagnostic()?.flaky) return;
    const where = path.relative(process.cwd(), testCase.module.moduleId);
    fs.appendFileSync(file, `${where} › ${testCase.fullName}\n`);
  }
}
