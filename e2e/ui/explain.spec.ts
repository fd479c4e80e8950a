/**
 * Start from the user's error (issue 22, point 6): a pasted FailedCreatePodSandBox event lands on
 * the finding that explains it; a line no finding explains says which signature matched.
 */
import { expect, test } from './test';
import { openApp, openDemo } from './app';

const EVENT = String.raw`Warning  FailedCreatePodSandBox  12s  kubelet  Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "9f1c": Error while dialing open \\.\pipe\cnisock: The system cannot find the file specified.`;

test('a pasted event opens the finding that explains it', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'windows-antrea-containerd');
  const box = page.getByTestId('explain');
  await box.getByLabel(/Paste a FailedCreatePodSandBox event/).fill(EVENT);
  await box.getByRole('button', { name: 'Explain' }).click();
  await expect(box.getByRole('status')).toContainText('windows.antrea.cnisock-missing');
  const open = box.getByRole('button', { name: /^Explained by: .*cnisock/ });
  await open.click();
  await expect(page.locator('aside h2').first()).toContainText('antrea-agent is not listening');
});

test('a line no finding explains names the signature and says so', async ({ page }) => {
  await openApp(page);
  await openDemo(page, 'minikube-conflict');
  const box = page.getByTestId('explain');
  await box
    .getByLabel(/Paste a FailedCreatePodSandBox event/)
    .fill(
      'cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized',
    );
  await box.getByRole('button', { name: 'Explain' }).click();
  const answer = box.getByRole('status');
  await expect(answer).toContainText('linux.containerd.no-network-config');
  await expect(answer).toContainText('No finding on this node explains it');
  await expect(answer).toContainText('cni.conf.none');
});
