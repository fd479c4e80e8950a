/**
 * The specs' `test`: Playwright's, plus what the browser said while a test ran. A test that fails
 * prints the page's uncaught errors, console errors, failed requests and crashes, so a failure in
 * CI (where only the log survives) says what the page went through, not only what the test waited
 * for: CI stop 31 waited 300 s for the Demo list and said no more than that.
 */
import { test as base } from '@playwright/test';

const MAX_LINES = 40;
const MAX_LINE = 400;

export const test = base.extend<{ browserLog: void }>({
  browserLog: [
    async ({ context }, use, info) => {
      const lines: string[] = [];
      const started = Date.now();
      const add = (line: string): void => {
        if (lines.length < MAX_LINES) lines.push(line.slice(0, MAX_LINE));
      };
      const at = (): string => `${((Date.now() - started) / 1000).toFixed(1)} s`;
      context.on('weberror', (e) => add(`${at()} uncaught: ${e.error().message}`));
      context.on('console', (m) => {
        if (m.type() === 'error') add(`${at()} console.error: ${m.text()}`);
      });
      context.on('requestfailed', (r) =>
        add(`${at()} request failed: ${r.method()} ${r.url()}: ${r.failure()?.errorText ?? '?'}`),
      );
      context.on('page', (p) => p.on('crash', () => add(`${at()} the page crashed`)));
      await use();
      if (info.status === info.expectedStatus) return;
      console.log(
        lines.length
          ? `what the browser said during "${info.title}":\n  ${lines.join('\n  ')}`
          : `the browser reported no error, failed request or crash during "${info.title}"`,
      );
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
