/**
 * Whether the doctor's PowerShell session runs as Administrator (docs/knowledge/windows-node.md#services-restart-order-and-logs: the
 * WindowsPrincipal check). Repairs that change HNS or services are refused up front without it,
 * instead of failing half-way with "Access is denied".
 */
/** Any runner with the session's run(): the session itself, or a lazy wrapper around it. */
export interface AdminCheckRunner {
  run(
    script: string,
    opts: { deadlineMs: number },
  ): Promise<{ ok: true; stdout: string } | { ok: false; message: string }>;
}

export const ADMIN_CHECK_SCRIPT =
  '([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)';

export async function isWindowsAdmin(runner: AdminCheckRunner): Promise<boolean> {
  const r = await runner.run(ADMIN_CHECK_SCRIPT, { deadlineMs: 30_000 });
  return r.ok && r.stdout.trim() === 'True';
}
