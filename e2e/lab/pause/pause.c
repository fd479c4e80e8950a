/*
 * Minimal pod sandbox "pause" process for the cni-doctor lab. The lab has no registry, so it
 * builds this statically (gcc -static -O2) into a one-layer OCI image at test time.
 * It only has to hold the pod's namespaces open: exit at once on SIGINT/SIGTERM (StopPodSandbox),
 * reap any child that gets re-parented to it (it is PID 1 of the pod's PID namespace), and sleep.
 */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) {
  (void)sig;
  _exit(0);
}

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0) return 1;
  sa.sa_handler = on_child;
  sa.sa_flags = SA_NOCLDSTOP;
  if (sigaction(SIGCHLD, &sa, NULL) < 0) return 2;
  for (;;) pause();
  return 42; /* not reached */
}
