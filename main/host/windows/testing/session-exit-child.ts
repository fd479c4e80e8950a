// Child process for powershell-session-exit.test.ts: one call on a long-lived session, then
// nothing. The process must end by itself (an idle shell does not hold it open).
import { PowerShellSession } from '../powershell-session';

const session = new PowerShellSession({
  executable: process.argv[2] as string,
  startDeadlineMs: 10_000,
});
const r = await session.run("Write-Output 'done'", { deadlineMs: 5000 });
process.stdout.write(`${r.ok ? r.stdout.trim() : `failed: ${r.message}`}\n`);
