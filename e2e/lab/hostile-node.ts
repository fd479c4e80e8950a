// startHostileNode(): a node container whose `sh` is the attacker's (red-team review, section 1):
// an unprivileged podman container whose root is a folder of ours with the host's /usr/bin,
// /usr/lib, /usr/lib64 and /usr/sbin bind-mounted read-only, and a program at /usr/local/bin/sh,
// first on the container's PATH, so `podman exec -i NAME sh -c AGENT` runs it instead of the
// agent. Over ssh the same: sshd runs the login shell (/bin/sh, the real dash), which finds `sh`
// on sshd's default PATH in /usr/local/bin. What the hostile `sh` does is read from
// /etc/hostile-mode at each start, so one node serves every attack shape.
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mustRun, run } from './exec';
import { sshFiles, waitForPort, type NodeSsh } from './node-container';

/**
 * The attacks (red-team review H1–H4):
 * - `blocks`: one answer of endless 90 MB blocks of 60,000-character base64 lines;
 * - `names`: one answer of endless `N 60000 …` name records;
 * - `framed`: every question answered in valid framing, but /etc/cni/net.d lists 3,000 confs and
 *   every read is answered with a 45 MB block (H3);
 * - `framed-max`: the same, each read answered with exactly the max+1 bytes it asked for (within
 *   each answer's own cap: only the session's total stops it);
 * - `hang`: the greeting, then nothing, ever.
 */
export type HostileMode = 'blocks' | 'names' | 'framed' | 'framed-max' | 'hang';

export interface HostileNode {
  readonly name: string;
  readonly target: string;
  readonly ssh: NodeSsh;
  setMode(mode: HostileMode): void;
  /** Processes in the node whose command line matches `pattern` (ps through /proc). */
  processes(pattern: RegExp): Promise<string[]>;
  /**
   * Kills what the last scan left running in the node: podman keeps an exec session (and the
   * hostile agent flooding it, ~70% of a core) after its client has gone, which starved the
   * next test's scan on a 2-core machine. Only the container's init and sshd's listener stay.
   */
  killLeftovers(): Promise<void>;
  stop(): Promise<void>;
}

// dash: `sh` on PATH is this very program. Lines are built once (printf of a repeated string).
const HOSTILE_SH = `#!/bin/dash
mode=$(cat /etc/hostile-mode)
echo '@ cni-doctor-agent 1 B'
line=$(head -c 45000 /dev/zero | base64 -w0)
case $mode in
hang) exec sleep 100000 ;;
blocks)
  read -r op; echo "> $op"
  while :; do echo B; yes "$line" | head -n 1500; echo .; done ;;
names)
  read -r op; echo "> $op"
  name=$(head -c 45000 /dev/zero | base64 -w0)
  while :; do printf 'N 60000 %s\\n' "$name"; done ;;
esac
# framed, framed-max: a well-framed answer to every question.
block() { # bytes
  echo B; head -c "$1" /dev/zero | base64; echo .
}
while IFS= read -r op; do
  case $op in
    stat|version|which|crictl|services|relay) read -r a ;;
    read|tail|list|journal) read -r a; read -r b ;;
    stats) # N paths, one stat answer each (as the real agent answers them)
      read -r n; i=0
      while [ $i -lt "$n" ] && IFS= read -r a; do
        i=$((i + 1)); echo '> stat'
        if [ "$a" = /etc/cni/net.d ]; then echo 'T dir'; else echo 'T file'; echo 'X 0'; fi
        echo '<'
      done
      continue ;;
    versions) # N paths, one version answer each
      read -r n; i=0
      while [ $i -lt "$n" ] && IFS= read -r a; do i=$((i + 1)); printf '> version\\nU not here\\n<\\n'; done
      continue ;;
    exit) echo '@ bye'; exit 0 ;;
  esac
  echo "> $op"
  case $op in
    node) echo 'N 7 hostile'; echo 'V 0' ;;
    stat) if [ "$a" = /etc/cni/net.d ]; then echo 'T dir'; else echo 'T file'; echo 'X 0'; fi ;;
    list)
      if [ "$a" = /etc/cni/net.d ]; then
        echo 'T dir'; i=1000
        while [ $i -lt 4000 ]; do echo "N 11 \${i}-x.conf"; i=$((i + 1)); done
      else echo 'T missing'; echo 'E ENOENT does not exist'; fi ;;
    read)
      echo 'T file'; echo 'X 0'
      if [ "$mode" = framed ]; then block 45000000; else block $((b + 1)); fi ;;
    *) echo 'U not here' ;;
  esac
  echo '<'
done
`;

export async function startHostileNode(): Promise<HostileNode> {
  const id = randomBytes(3).toString('hex');
  const name = `cnd-node-hostile-${id}`;
  const dir = mkdtempSync(join(tmpdir(), 'cnd-hostile-'));
  const rootfs = join(dir, 'rootfs');
  for (const d of [
    'etc/ssh',
    'etc/cni/net.d',
    'run/sshd',
    'tmp',
    'proc',
    'sys',
    'dev',
    'root',
    'var/log',
    'usr/local/bin',
  ])
    mkdirSync(join(rootfs, d), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  chmodSync(join(rootfs, 'run/sshd'), 0o755);
  const mounts: string[] = [];
  for (const d of ['bin', 'lib', 'lib64', 'sbin']) {
    if (!existsSync(`/usr/${d}`)) continue;
    mkdirSync(join(rootfs, 'usr', d), { recursive: true });
    mounts.push('-v', `/usr/${d}:/usr/${d}:ro`);
    symlinkSync(`usr/${d}`, join(rootfs, d));
  }
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    'root:x:0:0:root:/root:/bin/sh\nsshd:x:101:65534::/run/sshd:/usr/sbin/nologin\n',
  );
  writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnogroup:x:65534:\n');
  writeFileSync(join(rootfs, 'etc/shadow'), 'root:*:19000:0:99999:7:::\nsshd:*:19000::::::\n');
  chmodSync(join(rootfs, 'etc/shadow'), 0o600);
  writeFileSync(join(rootfs, 'etc/hostile-mode'), 'hang\n');
  writeFileSync(join(rootfs, 'usr/local/bin/sh'), HOSTILE_SH);
  chmodSync(join(rootfs, 'usr/local/bin/sh'), 0o755);
  const ssh = await sshFiles(dir, rootfs);
  writeFileSync(
    join(rootfs, 'init.sh'),
    `#!/bin/dash
/usr/sbin/sshd -f /etc/ssh/lab_sshd_config -E /var/log/sshd.log
exec sleep 2147483647
`,
  );
  chmodSync(join(rootfs, 'init.sh'), 0o755);
  const stop = async (): Promise<void> => {
    await run('podman', ['rm', '-f', '-t', '0', name], 60_000);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await mustRun(
      'podman',
      [
        'run',
        '-d',
        '--name',
        name,
        '--runtime',
        'runc',
        '--ulimit',
        'nofile=16384:16384',
        '--ulimit',
        'nproc=4096:4096',
        '--network',
        'host',
        '--hostname',
        name,
        ...mounts,
        '--rootfs',
        rootfs,
        '/init.sh',
      ],
      60_000,
    );
    await waitForPort(ssh.port, rootfs);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    name,
    target: `container:podman/${name}`,
    ssh,
    setMode: (mode) => writeFileSync(join(rootfs, 'etc/hostile-mode'), `${mode}\n`),
    async processes(pattern) {
      // The real dash, not the hostile sh: a script over /proc's cmdlines.
      const r = await run(
        'podman',
        [
          'exec',
          name,
          '/bin/dash',
          '-c',
          'for f in /proc/[0-9]*/cmdline; do tr "\\0" " " <"$f"; echo; done',
        ],
        30_000,
      );
      return r.stdout.split('\n').filter((l) => pattern.test(l));
    },
    async killLeftovers() {
      await run(
        'podman',
        [
          'exec',
          name,
          '/bin/dash',
          '-c',
          // Not PID 1, not this shell, not the sshd that listens (started with -f; OpenSSH 9 retitles
          // it "sshd: /usr/sbin/sshd -f … [listener] …").
          'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$p" = 1 ] || [ "$p" = $$ ] && continue; ' +
            'c=$(tr "\\0" " " <"$d/cmdline" 2>/dev/null); case $c in "/usr/sbin/sshd -f"* | "sshd: /usr/sbin/sshd -f"*) continue;; esac; ' +
            'kill -9 "$p" 2>/dev/null; done; true',
        ],
        30_000,
      );
    },
    stop,
  };
}
