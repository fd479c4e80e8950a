/**
 * Reaching a node container from the UI (issue 12): the lab's kind-like node container (podman,
 * containerd inside, a runtime default shadowing the cluster CNI) is listed under Targets, opened,
 * its finding shown, the repair applied through `podman exec` (every file operation inside it), and
 * undone from History — every file of the node byte for byte as before.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test';
import { confirmUndo } from './undo';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDispatcher } from '../../app/shared-server/dispatch';
import { createEngineBackend } from '../../app/shared-server/engine-backend';
import { engineRepairs } from '../../app/shared-server/engine-repairs';
import { ProgressBus } from '../../app/shared-server/progress';
import { TargetRegistry } from '../../app/shared-server/targets';
import { startWebServer } from '../../app/web/server';
import { startNodeContainer, type NodeContainer } from '../lab/node-container';
import { SCENARIOS } from '../lab/node-scenarios';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let node: NodeContainer | undefined;
let url = '';
let close: (() => Promise<void>) | undefined;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  const s = SCENARIOS.shadowing;
  node = await startNodeContainer({
    name: 'ui-target',
    configToml: s.configToml,
    confFiles: s.confFiles,
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'cni-doctor-e2e-targets-'));
  const progress = new ProgressBus();
  const backend = await createEngineBackend({
    door: 'web',
    progress,
    repairs: engineRepairs({ verifyTimeoutMs: 15_000 }),
    demosDir: path.join(ROOT, 'assets', 'demo'),
    tmpRoot: dir,
    rememberFile: path.join(dir, 'last-target'),
    // Only this machine's podman: the lab's node is one of its containers.
    targets: TargetRegistry.default({
      engines: ['podman'],
      sshConfig: path.join(dir, 'no-ssh-config'),
      kubectl: path.join(dir, 'no-kubectl'),
      rememberFile: path.join(dir, 'last-target'),
    }),
  });
  const server = await startWebServer({
    dispatcher: createDispatcher({ backend }),
    progress,
    staticDir: path.join(ROOT, 'dist', 'renderer'),
  });
  url = server.url;
  close = async () => {
    await server.close();
    await backend.dispose();
    rmSync(dir, { recursive: true, force: true });
  };
});

test.afterAll(async () => {
  await close?.();
  await node?.stop();
});

test('Targets lists the node container; open it, see the finding, apply and undo the repair', async ({
  page,
}) => {
  const n = node as NodeContainer;
  const before = n.configFiles();
  await page.goto(url);
  await page.locator('nav [data-screen="targets"]').click();
  const list = page.getByRole('list', { name: 'Reachable nodes' });
  const entry = list.getByRole('listitem').filter({ hasText: n.target });
  await expect(entry).toContainText('kind cluster cnd-lab (control-plane) via podman', {
    timeout: 30_000,
  });
  await entry.getByRole('button', { name: n.target }).click();

  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist', { timeout: 60_000 });
  // The node is in the address by its own name, and named with its transport (issue 22).
  const name = n.target.slice('container:podman/'.length);
  expect(new URL(page.url()).hash).toBe(
    `#/overview?src=${encodeURIComponent(`target:${n.target}`)}`,
  );
  const focus = `Node: ${name} via podman exec (${n.target})`;
  await expect(page.getByTestId('node-focus')).toHaveText(focus);
  await page.reload();
  await expect(page.getByTestId('node-focus')).toHaveText(focus);
  await expect(top).toContainText('10-containerd-net.conflist', { timeout: 60_000 });
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();
  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  await expect(repair.getByTestId('repair-node')).toHaveText(
    `${name} (via podman exec (${n.target}))`,
  );
  await expect(repair.getByRole('list', { name: 'Steps' })).toContainText(
    '10-containerd-net.conflist.disabled',
  );
  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect(repair.locator('[data-outcome]')).toHaveAttribute('data-outcome', 'applied', {
    timeout: 90_000,
  });
  await expect(repair).toContainText(
    'Applied and verified: the rescan no longer shows the problem.',
  );
  expect(n.configFiles()).not.toEqual(before);

  await page.keyboard.press('Escape');
  await page.locator('nav [data-screen="history"]').click();
  const row = page.getByRole('row', { name: /Disable 10-containerd-net\.conflist/ });
  await expect(row).toContainText('applied and verified', { timeout: 30_000 });
  // The node's own name and its transport, from the node's own journal: never "a recording".
  await expect(row).toContainText(`${name}via podman exec (${n.target})`);
  await expect(page.locator('.history')).not.toContainText('recording');
  await confirmUndo(row);
  await expect(page.getByRole('status').filter({ hasText: 'Undo: undone' })).toBeVisible({
    timeout: 60_000,
  });
  expect(n.configFiles()).toEqual(before);

  // Export records this node through its transport, not the machine serve runs on.
  await page.locator('nav [data-screen="bundles"]').click();
  await expect(page.getByTestId('export-node')).toHaveText(focus);
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await page.getByRole('button', { name: `Export bundle of ${name}` }).click();
  expect((await download).suggestedFilename()).toMatch(
    new RegExp(`^cni-doctor-${name}-.+\\.tar\\.gz$`),
  );
});

test('a target typed on the Targets screen is checked, opened, and remembered after a reload', async ({
  page,
}) => {
  const n = node as NodeContainer;
  await page.goto(url);
  await page.locator('nav [data-screen="targets"]').click();
  const field = page.getByLabel('Target', { exact: true });
  // Checked as it is typed, with the same parser as --target; nothing is sent while it is wrong.
  await field.fill('container:lxd/node1');
  await expect(page.locator('#typed-problem')).toContainText('lxd');
  await field.fill('local');
  await expect(page.locator('#typed-problem')).toContainText(
    'container:, ssh:, kubectl:, winrm: or pssession:',
  );
  // The screen with the field and its error reads right to a screen reader too.
  const axe = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  await field.fill(`  ${n.target}  `);
  await expect(page.locator('#typed-problem')).toHaveCount(0);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist', {
    timeout: 60_000,
  });

  // Between runs: the field keeps what was typed, and the server lists the node it opened.
  await page.reload();
  await page.locator('nav [data-screen="targets"]').click();
  await expect(page.getByLabel('Target', { exact: true })).toHaveValue(n.target);
  const list = page.getByRole('list', { name: 'Reachable nodes' });
  await expect(
    list.getByRole('listitem').filter({ hasText: 'used last time' }).first(),
  ).toContainText(n.target, { timeout: 30_000 });
});

test('Compare scans the node itself: after a reload, the node is offered and scanned for the comparison', async ({
  page,
}) => {
  const n = node as NodeContainer;
  await page.goto(url);
  await page.locator('nav [data-screen="targets"]').click();
  const entry = page
    .getByRole('list', { name: 'Reachable nodes' })
    .getByRole('listitem')
    .filter({ hasText: n.target })
    .first();
  await entry.getByRole('button', { name: n.target }).click();
  await expect(page.getByTestId('top-finding')).toContainText('10-containerd-net.conflist', {
    timeout: 60_000,
  });
  // A reload forgets what the Targets screen listed; Compare must still offer the node.
  await page.reload();
  await expect(page.getByTestId('top-finding')).toBeVisible({ timeout: 60_000 });
  await page.locator('nav [data-screen="compare"]').click();
  const before = page.getByLabel('Before');
  const option = before.locator('option', { hasText: `node: ${n.target}` });
  await expect(option).toHaveCount(1, { timeout: 60_000 });
  await before.selectOption({ label: `node: ${n.target}` });
  await expect(page.getByLabel('After')).toHaveValue(/^scan:s-/);
  await page.getByRole('button', { name: 'Show the differences' }).click();
  const sides = page.getByTestId('comparison').locator('.compare-sides');
  await expect(sides).toContainText(`Before: ${n.target}`, { timeout: 90_000 });
  await expect(sides).toContainText(`After: ${n.target}`);
});
