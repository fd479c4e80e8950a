/** The running scan's current step, announced politely to screen readers. */
import { useProgress } from '../state/progress-feed';

export function ScanProgress({ active }: { active: boolean }) {
  const { scan } = useProgress();
  if (!active) return null;
  const step = scan && !scan.done ? scan.step : 'starting';
  return (
    <div className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>Scanning: {step}…</span>
    </div>
  );
}
