import type { Page } from '@playwright/test';
import { expect, signIn, test, useServer } from '../fixtures.js';
import { text } from '../i18n.js';

const ko = (key: string) => text('ko', key);

test.use({ reducedMotion: 'reduce' });
test.describe.configure({ mode: 'serial' });

const server = useServer();

test.beforeAll(async () => {
  await server().createMaster();
});

/** Opens a new plan with five schedules, each with an afternoon time. */
async function planWithFiveSchedules(page: Page) {
  await page.goto(`${server().url}/snapshot`);
  await page.getByRole('button', { name: ko('snapshot_plan_new') }).click();
  const dialog = page.getByRole('dialog');
  for (let i = 0; i < 5; i++) await dialog.getByRole('button', { name: ko('snapshot_schedule_add') }).click();
  const rows = dialog.getByTestId('schedule-row');
  await expect(rows).toHaveCount(5);
  for (let i = 0; i < 5; i++)
    await rows
      .nth(i)
      .getByLabel(ko('snapshot_schedule_time'))
      .fill(`${15 + i}:4${i}`);
  return dialog;
}

for (const [label, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`the plan dialog with five schedules keeps its title and Save in view and shows whole times (${label})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page, server());
    const dialog = await planWithFiveSchedules(page);
    const title = dialog.getByRole('heading', { name: ko('snapshot_plan_new') });
    const save = dialog.getByRole('button', { name: ko('save') });
    const last = dialog.getByTestId('schedule-row').last();
    await last.scrollIntoViewIfNeeded();
    await expect(last).toBeInViewport();
    // The content scrolled; the title above it and the actions below it did not move out.
    await expect(title).toBeInViewport();
    await expect(save).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath(`plan-dialog-${label}.png`) });
    // Every time field is wide enough for its whole value (nothing is cut off inside it).
    const times = dialog.getByLabel(ko('snapshot_schedule_time'));
    for (let i = 0; i < 5; i++) {
      const fits = await times.nth(i).evaluate((input) => input.scrollWidth <= input.clientWidth + 1);
      expect(fits, `time field ${i + 1}`).toBe(true);
    }
  });
}
