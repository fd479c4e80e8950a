/**
 * "Not running as root": the scan could not look at some of the node (issue 22, point 1). Shown
 * above every screen of that scan, with the exact command that looks again elevated, so a
 * permission error is never read as a diagnosis.
 */
import type { AccessNote } from '../../../shared/model/report';
import { accessBanner } from '../../../shared/access-banner';
import { CopyButton } from './CopyButton';

export function AccessBanner({ access }: { access: AccessNote }) {
  const b = accessBanner(access);
  return (
    <section className="notice warn" aria-labelledby="access-title" data-testid="access-banner">
      <p id="access-title">
        <strong>{b.headline}</strong>
      </p>
      <p>{b.advice}</p>
      {b.command && (
        <p className="access-command">
          <code>{b.command}</code> <CopyButton label="Copy command" text={() => b.command ?? ''} />
        </p>
      )}
      <details>
        <summary>Which checks could not look</summary>
        <ul className="small">
          {access.denied.map((d) => (
            <li key={d.rule}>
              <code>{d.rule}</code>: {d.reason}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
