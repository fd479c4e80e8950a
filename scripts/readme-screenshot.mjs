// `npm run screenshots:readme`: takes the screenshots (e2e/ui/screenshots.spec.ts writes only to
// e2e/out/) and copies the light Overview over the README's picture, on purpose and nowhere else.
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';

const from = new URL('../e2e/out/screenshots/overview-light.png', import.meta.url);
const to = new URL('../assets/screenshot-overview.png', import.meta.url);
execFileSync(
  'npx',
  [
    'playwright',
    'test',
    '-c',
    'e2e/playwright.config.ts',
    'e2e/ui/screenshots.spec.ts',
    '-g',
    'light',
  ],
  { stdio: 'inherit', cwd: new URL('..', import.meta.url) },
);
copyFileSync(from, to);
console.log('assets/screenshot-overview.png updated from e2e/out/screenshots/overview-light.png');
