/** Step constructors that check the node before a step is planned. */
import type { RenameStep, RestartServiceStep, WriteStep } from '../../../shared/model/repair';
import type { TomlEditResult } from '../../config/toml';
import type { PlanHost } from './plan-host';
import { refuse } from './refusal';

/** Longest file name Linux (bytes) and NTFS (UTF-16 units) accept. */
const NAME_MAX = 255;

/** Rename a file whose content the plan records; never onto an existing path. */
export async function renameStep(host: PlanHost, from: string, to: string): Promise<RenameStep> {
  const st = await host.fs.stat(from);
  if (!st) refuse(`${from} does not exist any more`);
  if (st.type === 'dir') refuse(`${from} is a directory`);
  await host.exists(from);
  // Linux and NTFS both cap one name at 255 (bytes / UTF-16 units): the rename could only fail.
  const name = to.split(/[\\/]/).pop() ?? to;
  const size = host.os === 'windows' ? name.length : Buffer.byteLength(name);
  if (size > NAME_MAX)
    refuse(
      `the new name would be ${size} ${host.os === 'windows' ? 'characters' : 'bytes'}, over the ${NAME_MAX} a file name may have; rename ${from} by hand to something shorter`,
    );
  if (await host.exists(to))
    refuse(`${to} already exists; move it away first (a repair never overwrites a file)`);
  return { kind: 'rename', from, to, needsElevation: await host.needsElevation(to) };
}

export type TextEdit = (text: string) => TomlEditResult;

/** Edit an existing file: the full new content, expected to replace exactly the bytes read. */
export async function editStep(
  host: PlanHost,
  path: string,
  edits: TextEdit[],
  opts: { tempDir?: string } = {},
): Promise<WriteStep> {
  const t = await host.text(path);
  if (!t) refuse(`${path} does not exist`);
  let text = t.text;
  for (const edit of edits) {
    const r = edit(text);
    if (!r.ok) refuse(`cannot edit ${path}: ${r.reason}`);
    text = r.text;
  }
  if (text === t.text) refuse(`${path} already has the intended content; nothing to change`);
  return {
    kind: 'write',
    path,
    content: text,
    expectedSha256: t.sha256,
    needsElevation: await host.needsElevation(path),
    ...(opts.tempDir !== undefined && { tempDir: opts.tempDir }),
  };
}

/** Create a file that must not exist yet. */
export async function createStep(
  host: PlanHost,
  path: string,
  content: string,
  opts: { mode?: number; tempDir?: string } = {},
): Promise<WriteStep> {
  if (await host.exists(path)) refuse(`${path} already exists`);
  return {
    kind: 'write',
    path,
    content,
    expectedSha256: null,
    mode: opts.mode ?? 0o644,
    needsElevation: await host.needsElevation(path),
    ...(opts.tempDir !== undefined && { tempDir: opts.tempDir }),
  };
}

export function restartStep(
  host: PlanHost,
  service: string,
  opts: { daemonReload?: boolean } = {},
): RestartServiceStep {
  return {
    kind: 'restart-service',
    service,
    manager: host.os === 'windows' ? 'windows' : 'systemd',
    // A node disk under --root is not running: nothing to restart, nothing to elevate.
    needsElevation: host.live,
    ...(opts.daemonReload && { daemonReload: true }),
  };
}
