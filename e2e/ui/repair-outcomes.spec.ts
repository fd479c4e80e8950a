/**
 * Repair outcomes in words, on a node disk served by the real `cni-doctor serve --root DIR
 * --state-dir DIR`: a repair the scan already knows will fail is rated high and, applied anyway,
 * is rolled back with the new finding named by its title; once the cause is fixed the same repair
 * verifies, and after Undo both the panel and History say it is undone.
 */
import { expect, test } from './test';
import { previewUndo } from './undo';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEMO = path.join(ROOT, 'assets', 'demo', 'minikube-conflict', 'files');
let dir = '';
let disk = '';
let serve: ChildProcess | undefined;
let url = '';

function plugin(name: string): void {
  writeFileSync(path.join(disk, 'opt/cni/bin', name), '#!/bin/sh\n');
  chmodSync(path.join(disk, 'opt/cni/bin', name), 0o755);
}

test.beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-outcomes-'));
  disk = path.join(dir, 'node');
  for (const d of ['etc/cni/net.d', 'etc/containerd', 'opt/cni/bin'])
    mkdirSync(path.join(disk, d), { recursive: true });
  for (const f of readdirSync(path.join(DEMO, 'etc/cni/net.d')))
    copyFileSync(path.join(DEMO, 'etc/cni/net.d', f), path.join(disk, 'etc/cni/net.d', f));
  copyFileSync(
    path.join(DEMO, 'etc/containerd/config.toml'),
    path.join(disk, 'etc/containerd/config.toml'),
  );
  // kindnet (the config that takes over) needs ptp: left out, so the repair cannot hold.
  for (const b of ['bridge', 'host-local', 'loopback', 'portmap', 'firewall', 'tuning']) plugin(b);

  serve = spawn(
    process.execPath,
    [
      'bin/cni-doctor.mjs',
      'serve',
      '--port',
      '0',
      '--root',
      disk,
      '--state-dir',
      path.join(dir, 'state'),
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve!.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const line = out.split('\n').find((l) => l.startsWith('http://127.0.0.1:'));
      if (line) resolve(line.trim());
    });
    serve!.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
});

test.afterAll(async () => {
  serve?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

test('rolled back in words, then verified, undone in the panel and in History', async ({
  page,
}) => {
  await page.goto(url);
  await expect(page.locator('header .source')).toContainText(`node disk ${disk}`);
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist');
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();

  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  // The preview names the node the repair acts on.
  await expect(repair.getByTestId('repair-node')).toContainText(`node disk ${disk}`);
  // The scan already warned that kindnet lacks ptp: the preview is not "low".
  await expect(repair.locator('.badge.risk-high')).toHaveText('high');
  await expect(repair).toContainText('10-kindnet.conflist needs plugin "ptp"');
  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();

  const outcome = repair.locator('[data-outcome]');
  await expect(outcome).toHaveAttribute('data-outcome', 'rolled-back', { timeout: 30_000 });
  await expect(outcome).toContainText('Rolled back: the repair did not hold');
  await expect(outcome).toContainText('The rescan found a new error:');
  await expect(outcome.getByRole('list', { name: 'New errors' })).toContainText(
    '10-kindnet.conflist needs plugin "ptp"',
  );
  await expect(outcome).not.toContainText('cni.plugin.missing#');
  expect(existsSync(path.join(disk, 'etc/cni/net.d/10-containerd-net.conflist'))).toBe(true);
  // The rescan that failed, before / after: the warning about kindnet stayed, now an error.
  await expect(
    outcome.getByTestId('before-after').getByRole('group', { name: /^Stayed/ }),
  ).toContainText('error 10-kindnet.conflist needs plugin "ptp"');

  // A reload keeps the outcome: it is read from the node's journal, not from the page.
  await page.reload();
  const kept = page
    .getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ })
    .locator('[data-outcome]');
  await expect(kept).toHaveAttribute('data-outcome', 'rolled-back');
  await expect(kept.getByRole('list', { name: 'New errors' })).toContainText(
    '10-kindnet.conflist needs plugin "ptp"',
  );

  // Install the missing plugin; the same repair now holds.
  plugin('ptp');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Rescan' }).click();
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();
  const again = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await again.getByRole('button', { name: 'Preview repair' }).click();
  await expect(again.locator('.badge.risk-low')).toHaveText('low');
  await again.getByRole('button', { name: 'Apply…' }).click();
  await again
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  const done = again.locator('[data-outcome]');
  await expect(done).toHaveAttribute('data-outcome', 'applied', { timeout: 30_000 });
  // The undo question names the node it acts on.
  const undoing = await previewUndo(done);
  await expect(undoing).toContainText(`on node disk ${disk}`);
  await undoing.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(done).toHaveAttribute('data-outcome', 'undone', { timeout: 30_000 });
  await expect(done).toContainText('Undone: the files are back');
  await expect(done.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  expect(existsSync(path.join(disk, 'etc/cni/net.d/10-containerd-net.conflist'))).toBe(true);

  await page.keyboard.press('Escape');
  await page.locator('nav [data-screen="history"]').click();
  const rows = page.getByRole('row', { name: /Disable 10-containerd-net\.conflist/ });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('undone');
  await expect(rows.nth(1)).toContainText('rolled back');
  await expect(rows.nth(1)).toContainText('10-kindnet.conflist needs plugin "ptp"');
  await expect(rows.nth(0)).toContainText(`disk at ${disk}`);
  // The node in focus, named with how it is reached; a live node is never "a recording".
  await expect(rows.nth(0)).toContainText(`via node disk ${disk}`);
  await expect(page.getByTestId('history-node')).toContainText(`(via node disk ${disk})`);
  await expect(page.locator('.history')).not.toContainText('recording');
});
