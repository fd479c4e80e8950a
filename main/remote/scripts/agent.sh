# cni-doctor node agent: answers read-only questions about a Linux node over one program run.
#
# Started as `sh -c <this text>` through a transport (container exec, ssh, kubectl exec). It needs
# only a POSIX sh (dash, busybox ash, bash) plus head, base64 (or od) — what busybox-only nodes
# such as k3s have. Nothing here writes to the node.
#
# Requests arrive on stdin, one field per line (paths never contain a newline; the caller refuses
# such paths). Every answer goes to stdout as records:
#   > OP            an answer starts          <             the answer ends
#   T type          file|dir|socket|other|missing
#   E CODE text     an error (ENOENT, EACCES, EISDIR, OTHER); text is ours, never node data
#   X 0|1           executable          S n   size in bytes          V n   a number
#   I ino mtime ctime  an executable's identity (stats only): the caller keeps a plugin's
#                   `--version` answer under it, and asks again once any of the three changes
#   B / H           base64 / hex lines follow, up to a line "."
#   N len SP bytes  a name of exactly len bytes (may hold any byte but NUL), then a newline
#   U text          the question cannot be answered here (why)
#   (`read PATH MAX` sends up to MAX+1 bytes and no S: more than MAX means the file is longer)
#   @ bye           (after `exit`) nothing more will run: the caller need not wait for teardown
#   @ relay         (after `relay SOCKET`) from the next byte on, stdin and stdout are the
#                   socket's: socat took this run over (else an answer `> relay`, U why)
# External commands never inherit stdin (</dev/null): stdin carries the requests — except the
# socat that `relay` hands the run to, whose input the caller's gRPC bytes are from then on.

LC_ALL=C
export LC_ALL
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/var/lib/rancher/k3s/data/current/bin:$PATH
export PATH

if command -v base64 >/dev/null 2>&1; then ENC=B; ENCODE=base64; else ENC=H; ENCODE='od -An -v -tx1'; fi
# The programs that wait on a daemon (systemctl on systemd's bus, journalctl on journald) run
# under a bound, so that a command the caller gave up on (its deadline passed, or it was killed)
# leaves nothing of ours running on the node for longer than this (crictl and --version have
# their own below). File reads are not wrapped: a fork more per file, and a reader stuck on a
# dead NFS mount sleeps uninterruptibly, where no signal reaches it anyway.
# Tried once, when first needed (not at start: a fork on every scan's path): an old busybox's
# timeout (-t SECS) would refuse these words and empty the answer.
BOUND=unset
bound() {
  [ "$BOUND" = unset ] || return 0
  BOUND=''
  if timeout -s KILL 5 true </dev/null >/dev/null 2>&1; then BOUND='timeout -s KILL 120'; fi
}

blk() { # encodes stdin as one block
  echo "$ENC"; $ENCODE; echo .
}

nm() { printf 'N %s %s\n' "${#1}" "$1"; }

kind() { # sets K (no subshell: a fork per path is what makes shell collectors slow)
  if [ -d "$1" ]; then K=dir
  elif [ -f "$1" ]; then K=file
  elif [ -S "$1" ]; then K=socket
  elif [ -e "$1" ]; then K=other
  else K=missing; fi
}

q_stat() {
  kind "$1"; k=$K
  echo "T $k"
  if [ "$k" = file ]; then
    if [ -x "$1" ]; then
      echo "X 1"
      if command -v stat >/dev/null 2>&1; then
        id=$(stat -L -c '%i %Y %Z' -- "$1" </dev/null 2>/dev/null) && echo "I $id"
      fi
    else echo "X 0"; fi
    if [ -r "$1" ]; then echo "S $(wc -c <"$1" 2>/dev/null)"; fi
  elif [ "$k" = missing ] && [ -L "$1" ]; then
    echo "E ENOENT dangling symlink or symlink loop"
  fi
}

NL='
'
# Answers `stats N` followed by N paths (one per line) as N `stat` requests would be answered.
# The sizes of every readable regular file come from ONE wc: a wc per file (a fork and an exec)
# was most of the time a node spent on a plugin folder's 32 binaries (26 ms against 2 ms here).
# wc prints "SIZE NAME" per file it could open, in order; a line that is not the next path's
# (a file gone since the test, a name wc printed differently) is not trusted: that file is
# measured on its own, as stat does.
# Each executable's identity comes from ONE stat(1) the same way; a file it did not print as
# expected has none (its version is then asked, not remembered). Busybox's stat has -L and -c.
q_stats() { # count
  i=0
  while [ "$i" -lt "$1" ] && IFS= read -r a; do i=$((i + 1)); eval "sp_$i=\$a"; done
  set --
  j=0
  while [ "$j" -lt "$i" ]; do
    j=$((j + 1)); eval "a=\$sp_$j"
    if [ -f "$a" ] && [ -r "$a" ]; then set -- "$@" "$a"; fi
  done
  sizes=''
  if [ $# -gt 0 ]; then sizes=$(wc -c -- "$@" </dev/null 2>/dev/null)$NL; fi
  set --
  j=0
  while [ "$j" -lt "$i" ]; do
    j=$((j + 1)); eval "a=\$sp_$j"
    if [ -f "$a" ] && [ -x "$a" ]; then set -- "$@" "$a"; fi
  done
  ids=''
  if [ $# -gt 0 ] && command -v stat >/dev/null 2>&1; then
    ids=$(stat -L -c '%i %Y %Z %n' -- "$@" </dev/null 2>/dev/null)$NL
  fi
  j=0
  while [ "$j" -lt "$i" ]; do
    j=$((j + 1)); eval "a=\$sp_$j"; unset "sp_$j"
    echo "> stat"
    kind "$a"; k=$K
    echo "T $k"
    if [ "$k" = file ]; then
      if [ -x "$a" ]; then
        echo "X 1"
        line=${ids%%"$NL"*}
        if [ -n "$ids" ] && [ "${line#* * * }" = "$a" ]; then
          ids=${ids#*"$NL"}; echo "I ${line%" $a"}"
        fi
      else echo "X 0"; fi
      if [ -r "$a" ]; then
        line=${sizes%%"$NL"*}; line=${line#"${line%%[! ]*}"}
        if [ -n "$sizes" ] && [ "${line#* }" = "$a" ]; then
          sizes=${sizes#*"$NL"}; echo "S ${line%% *}"
        else echo "S $(wc -c <"$a" 2>/dev/null)"; fi
      fi
    elif [ "$k" = missing ] && [ -L "$a" ]; then
      echo "E ENOENT dangling symlink or symlink loop"
    fi
    echo "<"
  done
}

q_read() { # path max mode(head|tail)
  kind "$1"; k=$K
  echo "T $k"
  case $k in
    missing) echo "E ENOENT does not exist" ;;
    dir) echo "E EISDIR is a directory" ;;
    file)
      if [ ! -r "$1" ]; then echo "E EACCES permission denied"; return; fi
      if [ -x "$1" ]; then echo "X 1"; else echo "X 0"; fi
      # No size (S): a read takes one byte more than asked, so more means cut short (the caller
      # then asks stat), and a tail's size is not used. The block is written here, not through
      # blk: wc, and blk's subshell, were two more forks per file.
      echo "$ENC"
      if [ "$3" = tail ]; then tail -c "$2" "$1" </dev/null 2>/dev/null | $ENCODE
      else head -c "$(($2 + 1))" "$1" </dev/null 2>/dev/null | $ENCODE; fi
      echo . ;;
    *) echo "E OTHER not a regular file" ;;
  esac
}

q_list() { # dir max
  kind "$1"; k=$K
  echo "T $k"
  if [ "$k" = missing ]; then echo "E ENOENT does not exist"; return; fi
  if [ "$k" != dir ]; then echo "E ENOTDIR not a directory"; return; fi
  if [ ! -r "$1" ] || [ ! -x "$1" ]; then echo "E EACCES permission denied"; return; fi
  n=0
  for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    [ -e "$e" ] || [ -L "$e" ] || continue
    n=$((n + 1))
    [ "$n" -le "$2" ] || { echo "U truncated"; break; }
    nm "${e##*/}"
  done
}

q_procs() {
  set -- /proc/[0-9]*/cmdline
  if [ ! -e "$1" ]; then echo "U /proc is not mounted"; return; fi
  # One head for every process: its "==> /proc/N/cmdline <==" headers frame the NUL-separated
  # argument vectors (kernel threads have empty ones).
  head -c 65536 /dev/null "$@" </dev/null 2>/dev/null | blk
}

q_node() {
  h=''
  if [ -r /proc/sys/kernel/hostname ]; then read -r h </proc/sys/kernel/hostname; fi
  [ -n "$h" ] || h=$(uname -n 2>/dev/null </dev/null)
  nm "$h"
  # The effective uid from this shell's own status (builtins only: `id -u` was a fork and an exec
  # of a program linked to libselinux, 1-2 ms on every scan's path); `id -u` where it is missing.
  u=''
  if [ -r /proc/self/status ]; then
    while IFS=' 	' read -r k _ eu _; do
      if [ "$k" = Uid: ]; then u=$eu; break; fi
    done </proc/self/status
  fi
  case $u in *[!0-9]*|'') u=$(id -u 2>/dev/null </dev/null) ;; esac
  echo "V $u"
}

has_systemd() { [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; }

q_services() { # unit names, space-separated, validated by the caller
  if ! has_systemd; then echo "U systemd is not running on this node"; return; fi
  bound
  # shellcheck disable=SC2086
  $BOUND systemctl show --no-pager -p Id,LoadState,ActiveState $1 </dev/null 2>&1 | blk
}

q_journal() { # unit lines
  if ! command -v journalctl >/dev/null 2>&1; then echo "U no journalctl"; return; fi
  if ! has_systemd && [ ! -d /var/log/journal ] && [ ! -d /run/log/journal ]; then
    echo "U no journal on this node"; return
  fi
  bound
  $BOUND journalctl -u "$1" -n "$2" --no-pager -o short-iso </dev/null 2>&1 | blk
}

# Whether this node has timeout(1), looked up once, in this shell, before the first --version
# (a `versions` request runs its programs in subshells, which would each look it up again).
TIMEOUT=unset
find_timeout() {
  [ "$TIMEOUT" = unset ] || return 0
  if command -v timeout >/dev/null 2>&1; then TIMEOUT='timeout 3'; else TIMEOUT=''; fi
}

version_text() { # binary: its --version output, encoded (a block's lines)
  find_timeout
  $TIMEOUT "$1" --version </dev/null 2>&1 | head -c 4096 | $ENCODE
}

q_version() { # binary
  if [ ! -e "$1" ]; then echo "T missing"; return; fi
  echo "T file"
  echo "$ENC"
  version_text "$1"
  echo .
}

# One stage of q_versions' pipeline: runs its program at once, beside the other stages, then
# passes on the answers of the stages before it (its input) and writes its own after them.
v_stage() { # binary
  if [ -e "$1" ]; then t=file; o=$(version_text "$1"); else t=missing; fi
  cat
  echo "> version"
  echo "T $t"
  if [ "$t" = file ]; then
    echo "$ENC"
    if [ -n "$o" ]; then printf '%s\n' "$o"; fi
    echo .
  fi
  echo "<"
}

# Answers `versions N` followed by N paths as N `version` requests would be answered, with the
# programs run side by side: a node's containerd and kubelet --version are Go programs of tens
# of MB that take 20-100 ms each, and the scan waits for both before it asks CRI. No file is
# written for it: each stage of a pipeline holds its own output until the stages before it are
# done.
q_versions() { # count
  find_timeout
  i=0; stages=':'
  while [ "$i" -lt "$1" ] && IFS= read -r a; do
    i=$((i + 1)); eval "vp_$i=\$a"; stages="$stages | v_stage \"\$vp_$i\""
  done
  eval "$stages" </dev/null
}

# The runtime's CRI answers through the node's own crictl (or k3s's), for one endpoint: which
# crictl (a name), then per call its exit code (V) and its stdout (a block; on failure, stderr).
crictl_run() { # endpoint call...
  ep=$1; shift
  if command -v timeout >/dev/null 2>&1; then set -- timeout 15 $CRICTL --runtime-endpoint "$ep" --timeout 5s "$@"
  else set -- $CRICTL --runtime-endpoint "$ep" --timeout 5s "$@"; fi
  o=$("$@" </dev/null 2>/dev/null); c=$?
  if [ "$c" -ne 0 ]; then o=$("$@" </dev/null 2>&1 >/dev/null | head -c 4096); fi
  echo "V $c"
  printf '%s' "$o" | blk
}

q_crictl() { # endpoint
  if command -v crictl >/dev/null 2>&1; then CRICTL=$(command -v crictl)
  elif command -v k3s >/dev/null 2>&1; then CRICTL="$(command -v k3s) crictl"
  else echo "U neither crictl nor k3s crictl is on this node"; return; fi
  nm "$CRICTL"
  crictl_run "$1" version
  crictl_run "$1" info -o json
  crictl_run "$1" pods -o json
}

# The run's last request: the runtime's CRI socket, relayed by socat over this same stdin and
# stdout, so that CRI costs no second program run through the transport (a second `podman exec`
# is ~50 ms of CPU and queues on the container's lock). The caller sends nothing after it.
q_relay() { # socket path (a plain path: the caller refuses `,` and `:`, socat's own syntax)
  if command -v socat >/dev/null 2>&1; then
    echo "@ relay"
    exec socat - "UNIX-CONNECT:$1"
  fi
  echo "> relay"; echo "U socat is not on this node"
}

q_which() { # program
  p=$(command -v "$1" 2>/dev/null)
  if [ -n "$p" ]; then nm "$p"; else echo "T missing"; fi
}

echo "@ cni-doctor-agent 1 $ENC"
while IFS= read -r op; do
  case $op in
    stat) IFS= read -r a; echo "> stat"; q_stat "$a" ;;
    stats) IFS= read -r a; case $a in *[!0-9]*|'') a=0 ;; esac; q_stats "$a"; continue ;;
    versions) IFS= read -r a; case $a in *[!0-9]*|'') a=0 ;; esac; q_versions "$a"; continue ;;
    read) IFS= read -r a; IFS= read -r b; echo "> read"; q_read "$a" "$b" head ;;
    tail) IFS= read -r a; IFS= read -r b; echo "> tail"; q_read "$a" "$b" tail ;;
    list) IFS= read -r a; IFS= read -r b; echo "> list"; q_list "$a" "$b" ;;
    procs) echo "> procs"; q_procs ;;
    node) echo "> node"; q_node ;;
    services) IFS= read -r a; echo "> services"; q_services "$a" ;;
    journal) IFS= read -r a; IFS= read -r b; echo "> journal"; q_journal "$a" "$b" ;;
    version) IFS= read -r a; echo "> version"; q_version "$a" ;;
    which) IFS= read -r a; echo "> which"; q_which "$a" ;;
    crictl) IFS= read -r a; echo "> crictl"; q_crictl "$a" ;;
    relay) IFS= read -r a; q_relay "$a" ;;
    exit) echo '@ bye'; exit 0 ;;
    *) echo "> ?"; echo "E OTHER unknown request" ;;
  esac
  echo "<"
done
