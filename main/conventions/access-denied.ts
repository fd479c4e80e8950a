/**
 * "Could not look" is never a cause (issue 22, point 1). A read or a dial that failed because the
 * scan lacked privileges (EACCES/EPERM on Linux, "Access is denied" on Windows) says nothing about
 * the node: rules turn it into an `unknown` check and the report carries a banner that says how to
 * rerun elevated. The probes and the rules both need to recognise these errors in the text a host,
 * a gRPC client, socat or crictl handed back, so the spelling lives here.
 */

/** EACCES/EPERM as Node, gRPC (`connect EACCES …`), socat, crictl and PowerShell word them. */
const DENIED =
  /\bEACCES\b|\bEPERM\b|permission denied|access is denied|access denied|operation not permitted|UnauthorizedAccess/i;

export function isAccessDenied(text: string | undefined | null): boolean {
  return typeof text === 'string' && DENIED.test(text);
}

/** The reason an unknown check gives when the scan was refused access to `what`. */
export function accessDeniedReason(what: string, os: 'linux' | 'windows'): string {
  return `permission denied on ${what}: the scan is not running as ${os === 'windows' ? 'Administrator' : 'root'}, so it could not look (this says nothing about the node)`;
}
