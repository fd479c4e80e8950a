/**
 * A repair through the UI against the real containerd lab (needs root and Debian's containerd;
 * like the vitest lab it fails with the install command when they are missing, never skips):
 * a runtime default shadows the cluster config → Overview shows it → preview → Apply → the
 * verification succeeds → containerd loads the cluster network and a real pod gets its subnet →
 * Undo from History restores the file byte for byte.
 */
import { expect, test } from './test';
import { confirmUndo } from './undo';
import { readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { startLab, type Lab } from '../lab/harness';
import { bridgeConflist } from '../lab/cni-conf';
import { inSubnet } from '../lab/ipv4';
import { assertPreflight } from '../lab/preflight';
import { startKubeletStandIn, type KubeletStandIn } from '../lab/kubelet-standin';
import { serveLab, type LabServer } from './lab-server';

let lab: Lab | undefined;
let kubelet: KubeletStandIn | undefined;
let server: LabServer | undefined;

test.describe.configure({ timeout: 180_000 });

test.beforeAll(async () => {
  assertPreflight();
  lab = await startLab({ name: 'ui-repair' });
  const network = (name: string, n: number): string =>
    bridgeConflist({
      name,
      bridge: lab!.bridgeName(n),
      subnet: lab!.subnet(n),
      dataDir: lab!.paths.ipamDir,
    });
  lab.writeConf('10-containerd-net.conflist', network('containerd-net', 1));
  lab.writeConf('10-kindnet.conflist', network('kindnet', 2));
  await lab.waitForStatus((s) => (s.info.cniconfig ?? '').includes('containerd-net'));
  kubelet = await startKubeletStandIn([`--container-runtime-endpoint=unix://${lab.socket}`]);
  server = await serveLab(lab);
});

test.afterAll(async () => {
  await server?.close();
  await kubelet?.stop();
  await lab?.stop(); // throws when anything leaked
});

test('disable the shadowing default, verify against the running containerd, undo', async ({
  page,
}) => {
  const l = lab as Lab;
  const defaultPath = path.join(l.confDir, '10-containerd-net.conflist');
  const before = readFileSync(defaultPath);

  await page.goto((server as LabServer).url);
  const top = page.getByTestId('top-finding');
  await expect(top).toContainText('10-containerd-net.conflist', { timeout: 30_000 });
  await top.getByRole('button', { name: 'Show evidence and repair' }).click();

  const repair = page.getByRole('region', { name: /Repair: Disable 10-containerd-net.conflist/ });
  await repair.getByRole('button', { name: 'Preview repair' }).click();
  await expect(repair.getByRole('list', { name: 'Steps' })).toContainText(
    '10-containerd-net.conflist.disabled',
  );
  await repair.getByRole('button', { name: 'Apply…' }).click();
  await repair
    .getByRole('group', { name: 'Confirm repair' })
    .getByRole('button', { name: 'Apply' })
    .click();
  await expect(
    repair.getByText('Applied and verified: the rescan no longer shows the problem.'),
  ).toBeVisible({ timeout: 60_000 });
  expect(existsSync(`${defaultPath}.disabled`)).toBe(true);

  // The real runtime now uses the cluster network, and a real pod gets the cluster's subnet.
  await l.waitForStatus((s) => (s.info.cniconfig ?? '').includes('kindnet'));
  const pod = await l.runPod('after-ui-repair');
  expect(pod.ok).toBe(true);
  if (pod.ok) expect(inSubnet(pod.ip, l.subnet(2))).toBe(true);

  await page.keyboard.press('Escape');
  await page.locator('nav [data-screen="history"]').click();
  const row = page.getByRole('row', { name: /Disable 10-containerd-net\.conflist/ });
  await expect(row).toContainText('applied and verified');
  await confirmUndo(row);
  await expect(page.getByRole('status').filter({ hasText: 'Undo: undone' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(row).toContainText('undone');
  expect(readFileSync(defaultPath).equals(before)).toBe(true);
  expect(existsSync(`${defaultPath}.disabled`)).toBe(false);
});
