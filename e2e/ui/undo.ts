/** Undo as the UI asks for it: "Undo…" previews what it puts back, then "Undo" confirms. */
import { expect, type Locator } from '@playwright/test';

/** Opens the Undo preview inside `scope` (a repair outcome, a History row); returns the question. */
export async function previewUndo(scope: Locator): Promise<Locator> {
  await scope.getByRole('button', { name: /^Undo/ }).first().click();
  const confirm = scope.getByRole('group', { name: 'Confirm undo' });
  await expect(confirm.getByRole('button', { name: 'Undo', exact: true })).toBeVisible();
  return confirm;
}

export async function confirmUndo(scope: Locator): Promise<void> {
  const confirm = await previewUndo(scope);
  await confirm.getByRole('button', { name: 'Undo', exact: true }).click();
}
