/**
 * A node disk mounted under --root is not running: its services start from the repaired files
 * when it boots, so a restart step is recorded and skipped.
 */
import type { ServiceManager } from './types';

export class OfflineServiceManager implements ServiceManager {
  readonly kind = 'offline';
  readonly live = false;

  async restart(): Promise<void> {
    // Nothing runs on a mounted disk; the service reads the new file at the node's next boot.
  }

  async isActive(): Promise<boolean> {
    return true;
  }
}
