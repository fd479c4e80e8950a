/** What each screen must show before its picture is worth keeping (layout and screenshot specs). */
import { expect, type Page } from '@playwright/test';

export async function expectScreen(page: Page, name: string, topFinding: RegExp): Promise<void> {
  const heading = (text: string | RegExp) =>
    expect(page.getByRole('heading', { level: 1, name: text })).toBeVisible();
  switch (name) {
    case 'overview':
      await expect(page.getByTestId('top-finding')).toContainText(topFinding);
      await expect(page.locator('.facts').first()).toBeVisible();
      break;
    case 'finding-detail': {
      const detail = page.getByTestId('finding-detail');
      await expect(detail.getByRole('heading', { level: 2 })).toContainText(topFinding);
      await expect(page.getByTestId('evidence')).toBeVisible();
      break;
    }
    case 'findings':
      await heading('Findings');
      await expect(page.locator('li.finding').first()).toBeVisible();
      break;
    case 'inventory':
      await heading('Inventory');
      await expect(page.getByRole('tab').first()).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('.vtable').first()).toBeVisible();
      break;
    case 'checks':
      await heading('Checks');
      await expect(page.locator('.checks-table tbody tr.st-row-fail').first()).toBeVisible();
      break;
    case 'history':
      await heading('History');
      break;
    case 'bundles':
      await heading('Bundles');
      break;
    case 'demo':
      await heading('Demo nodes');
      await expect(page.locator('.demo-list > li')).not.toHaveCount(0);
      break;
    case 'compare': {
      // visitEveryScreen compares the demo shown (After) with the healthy demo (Before).
      await heading('Compare');
      const result = page.getByTestId('comparison');
      await expect(result).toContainText(/Before: demo: .*healthy/i);
      await expect(result.locator('section[aria-labelledby="cmp-added"]')).toContainText(
        topFinding,
      );
      await expect(page.getByRole('region', { name: /^Load order of / }).first()).toBeVisible();
      break;
    }
    case 'cluster':
      await heading('Cluster');
      await expect(page.getByRole('region', { name: 'lab-node' })).toContainText(/stuck/);
      break;
    case 'file-viewer':
      // A file the top finding quotes, whole, as the scan's snapshot holds it.
      await expect(page.getByTestId('viewer').getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByTestId('file-lines').locator('.line').first()).toBeVisible();
      await expect(page.getByLabel('Find in file')).toBeVisible();
      break;
    case 'log-viewer':
      await expect(page.getByTestId('log-location')).toBeVisible();
      await expect(page.getByTestId('log-lines').locator('.line.hl')).toHaveCount(1);
      break;
    case 'cri-viewer':
      await expect(page.getByTestId('cri-entry').first()).toContainText('"runtimeName"');
      break;
    default:
      throw new Error(`no expectation for screen ${name}`);
  }
}
