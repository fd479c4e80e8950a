/**
 * One node in focus everywhere (issue 22 point 2): with no node given, the first screen is a node
 * picker and nothing is scanned; the chosen node is in the address (reload and Back keep it), is
 * named on every screen, and History and Export act on it; `serve --target` opens on that node.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page } from '@playwright/test';
import { expect, test } from './test';
import { memoryNode } from '../../main/host/memory-node.testutil';
import { goScreen } from './app';
import { serveMemoryNode, type MemoryServer } from './memory-node-server';
import { startServe, type ServeProcess } from './serve-process';

/** What the server holds, asked from the page (same origin, the tab's token). */
async function heldScans(page: Page): Promise<unknown[]> {
  return page.evaluate(async () => {
    const token = sessionStorage.getItem('cni-doctor.token') ?? '';
    const r = await fetch('/api/list-scans', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    return ((await r.json()) as { result: unknown[] }).result;
  });
}

async function seriousViolations(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

test.describe('serve with no node given', () => {
  let serve: ServeProcess | undefined;
  test.beforeAll(async () => {
    serve = await startServe([]);
  });
  test.afterAll(async () => {
    await serve?.stop();
  });

  test('opens on the node picker, scans nothing, and is axe clean in both themes', async ({
    page,
  }) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.goto(serve?.url ?? '');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a node');
      await expect(page.locator('header .source')).toHaveText('No node chosen');
      await expect(page.getByRole('heading', { name: 'This machine' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Nodes you can reach' })).toBeVisible();
      await expect(page.getByLabel('Target', { exact: true })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Demo nodes' })).toContainText('minikube');
      await expect(page.getByRole('button', { name: 'Open a bundle file…' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Rescan' })).toBeDisabled();
      // Wait for discovery to settle before axe looks (its status line comes and goes).
      await expect(page.getByText('Looking for nodes…')).toHaveCount(0, { timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
    }
    // Not a green "No cause found" of a machine nobody chose: nothing was scanned at all.
    await expect(page.getByTestId('top-finding')).toHaveCount(0);
    expect(await heldScans(page)).toEqual([]);
  });

  test('a picked node is in the address and named on every screen; reload and Back keep it', async ({
    page,
  }) => {
    await page.goto(serve?.url ?? '');
    await page
      .getByRole('list', { name: 'Demo nodes' })
      .getByRole('button', { name: /minikube/ })
      .click();
    await expect(page.getByTestId('top-finding')).toBeVisible();
    expect(new URL(page.url()).hash).toBe('#/overview?src=demo%3Aminikube-conflict');
    const node = page.getByTestId('node-focus');
    await expect(node).toContainText(/^Node: \S+ via demo: minikube/);
    const named = (await node.innerText()).trim();

    for (const screen of [
      'findings',
      'inventory',
      'checks',
      'history',
      'bundles',
      'compare',
    ] as const) {
      await goScreen(page, screen);
      await expect(node).toHaveText(named);
    }
    // History: a recording keeps no journal here, and it says so, naming the node.
    await goScreen(page, 'history');
    await expect(page.getByTestId('history-node')).toContainText(`${named}. This is a recording`);
    // Export: a recording is not exported as if it were this machine.
    await goScreen(page, 'bundles');
    await expect(page.getByTestId('export-node')).toHaveText(named);
    await expect(page.getByRole('button', { name: /^Export bundle/ })).toHaveCount(0);

    await page.reload();
    await expect(node).toHaveText(named);
    expect(new URL(page.url()).hash).toBe('#/bundles?src=demo%3Aminikube-conflict');
    // Back moves through the screens and stays on the node.
    await page.goBack();
    await expect(node).toHaveText(named);
    await expect(page.locator('nav [data-screen="history"]')).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('a target the address names but this run never opened is offered, not reached', async ({
    page,
  }) => {
    await page.goto(serve?.url ?? '');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a node');
    await page.evaluate(() => {
      location.hash = '#/overview?src=target%3Assh%3Aadmin%40node-from-a-ticket';
    });
    await expect(page.getByTestId('node-focus')).toContainText(
      'Node: node-from-a-ticket via ssh (ssh:admin@node-from-a-ticket)',
    );
    await expect(page.getByRole('status').filter({ hasText: 'has not opened yet' })).toContainText(
      'ssh:admin@node-from-a-ticket',
    );
    await expect(page.getByLabel('Target', { exact: true })).toHaveValue(
      'ssh:admin@node-from-a-ticket',
    );
    // (The demo of the test before is held; no scan of any target is.)
    const held = (await heldScans(page)) as { request: { source: string } }[];
    expect(held.filter((h) => h.request.source === 'target')).toEqual([]);
  });
});

test.describe('serve --target', () => {
  let serve: ServeProcess | undefined;
  test.beforeAll(async () => {
    serve = await startServe(['--target', 'container:podman/cni-doctor-no-such-node']);
  });
  test.afterAll(async () => {
    await serve?.stop();
  });

  test('lands on that node, named with its transport, with the target in the address', async ({
    page,
  }) => {
    await page.goto(serve?.url ?? '');
    await expect(page.getByTestId('node-focus')).toContainText(
      'Node: cni-doctor-no-such-node via podman exec (container:podman/cni-doctor-no-such-node)',
    );
    // No picker: the node was given. (No such container exists, so its scan says why.)
    await expect(page.getByRole('heading', { name: 'Choose a node' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toContainText(/cni-doctor-no-such-node|scan failed/, {
      timeout: 90_000,
    });
    await goScreen(page, 'history');
    await expect(page.getByTestId('node-focus')).toContainText('cni-doctor-no-such-node');
  });
});

test.describe('this machine is a node', () => {
  let server: MemoryServer | undefined;
  test.beforeAll(async () => {
    // A machine with a kubelet: offered first, but nothing is scanned until the user chooses.
    server = await serveMemoryNode(
      () =>
        memoryNode({
          files: {
            '/var/lib/kubelet/config.yaml': 'kind: KubeletConfiguration\n',
            '/etc/cni/net.d/10-bridge.conflist': '{"cniVersion":"1.0.0","name":"b","plugins":[]}',
          },
        }),
      { liveChosen: false },
    );
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('the picker offers it first and scans it only when chosen; History names it', async ({
    page,
  }) => {
    await page.goto(server?.url ?? '');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Choose a node');
    const first = page.locator('.node-picker section').first();
    await expect(first).toContainText(
      'This machine looks like a Kubernetes node (/var/lib/kubelet/config.yaml exists)',
    );
    expect(await heldScans(page)).toEqual([]);
    await first.getByRole('button', { name: 'Scan this machine' }).click();
    await expect(page.getByTestId('node-focus')).toContainText('via this machine');
    expect(new URL(page.url()).hash).toBe('#/overview?src=live');
    await goScreen(page, 'history');
    await expect(page.getByTestId('history-node')).toContainText('Repairs applied on');
    await expect(page.getByTestId('history-node')).toContainText("from the node's own journal");
    await expect(page.locator('.history')).not.toContainText('recording');
  });
});
