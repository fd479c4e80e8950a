// `npm run screenshots:readme`: runs the layout test that photographs every screen at 1280×800,
// light (e2e/ui/layout.spec.ts). That test checks the minikube Overview shows what the README
// says and writes assets/screenshot-overview.png itself, only when the picture changed; the
// whole e2e run (npm test) does the same.
import { execFileSync } from 'node:child_process';

execFileSync(
  'npx',
  [
    'playwright',
    'test',
    '-c',
    'e2e/playwright.config.ts',
    'e2e/ui/layout.spec.ts',
    '-g',
    '1280×800, light',
  ],
  { stdio: 'inherit', cwd: new URL('..', import.meta.url) },
);
console.log('assets/screenshot-overview.png is the 1280×800 light Overview of the minikube demo');
