/**
 * The Cluster screen (issue 23) against API answers recorded from a real Kubernetes v1.32
 * (fixtures/cluster/lab-v1.32/stuck, served by the replayed kubectl global-setup hands `serve`):
 * the node, its pods stuck in sandbox creation grouped by signature, and "Scan this node"
 * through the debug pod — whose "pod" is this machine in the replay.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './test';
import { goScreen, openApp } from './app';

test('shows the recorded cluster, its stuck pods by cause, and scans a node through kubectl', async ({
  page,
}) => {
  await openApp(page);
  await goScreen(page, 'cluster');
  await expect(page.getByRole('heading', { level: 1, name: 'Cluster' })).toBeVisible();
  const node = page.getByRole('region', { name: 'lab-node' });
  await expect(node).toContainText('containerd://1.6.20');
  await expect(node.getByRole('heading', { level: 3 })).toContainText(
    "4 stuck: A CNI plugin binary is missing from the runtime's bin dir",
  );
  await expect(node).toContainText('failed to find plugin "flannel" in path [/usr/lib/cni]');
  const axe = await new AxeBuilder({ page }).include('.screen.cluster').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await node.getByRole('button', { name: 'Scan this node' }).click();
  await expect(node.getByText(/^Scanned through kubectl:lab-node: \d+ error/)).toBeVisible({
    timeout: 60_000,
  });
});
