/** Progress of scans and repairs, pushed to whoever listens (SSE streams, the desktop window). */
import type { ProgressEvent } from '../../shared/api';

export class ProgressBus {
  private readonly listeners = new Set<(e: ProgressEvent) => void>();

  subscribe(fn: (e: ProgressEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(e: ProgressEvent): void {
    for (const fn of this.listeners) {
      // A listener that throws (a closed socket) must not stop the scan or the other listeners.
      try {
        fn(e);
      } catch {
        this.listeners.delete(fn);
      }
    }
  }
}
