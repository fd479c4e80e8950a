/**
 * The one wording of the "could not look" banner (issue 22, point 1), for the CLI's text report,
 * the UI and the HTML report: what was refused, that no finding rests on it, and the exact
 * command that looks again with the privilege the scan lacked.
 */
import type { AccessNote } from './model/report';

export interface AccessBanner {
  headline: string;
  /** What to do, without the command. */
  advice: string;
  /** The command to copy, when the door that scanned knows it. */
  command?: string;
}

export function accessBanner(a: AccessNote): AccessBanner {
  const n = a.denied.length;
  const checks = `${n} check${n === 1 ? '' : 's'} could not look (permission denied)`;
  const headline =
    a.elevated === true
      ? `Permission denied even with ${a.needs} rights: ${checks}. No finding rests on them.`
      : `Not running as ${a.needs}: ${checks}. No finding rests on them and no repair is offered for them.`;
  const elevate =
    a.needs === 'root' ? 'run with sudo' : 'run from an elevated (Run as Administrator) prompt';
  return {
    headline,
    advice: a.rerun
      ? `To look, ${elevate}:`
      : `To look, ${elevate} on the node (a bundle: collect it again that way).`,
    ...(a.rerun !== undefined && { command: a.rerun }),
  };
}
