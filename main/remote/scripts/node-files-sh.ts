/**
 * The repair engine's file operations on a node reached through a transport (ssh, a kubectl debug
 * pod): one operation per program run, `sh -c <this> cni-doctor-files OP ARG...`, arguments as
 * separate words, file bytes as base64 on stdin and stdout. It needs a POSIX sh (dash, busybox ash)
 * with stat -c, readlink -f, base64, mv, sync — coreutils or busybox.
 *
 * Exit codes: 0 done; 3 missing; 4 exists (never overwritten); 5 unsafe (a symlink or not a
 * regular file where one is required); 1 anything else, with the reason on stderr.
 *
 * Every caller passes absolute paths without newlines (checked on our side), so no path can be
 * read as an option. `sync FILE` fsyncs that file or directory (coreutils ≥ 8.24, busybox ≥ 1.26);
 * where sync takes no file, a whole-system sync is at least as durable.
 */
export const NODE_FILES_SH = `
LC_ALL=C; export LC_ALL
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH; export PATH
umask 077
op=$1; shift
fail() { c=$1; shift; printf '%s\\n' "$*" >&2; exit "$c"; }
fsync() { sync "$1" 2>/dev/null || sync; }
dir_of() { d=\${1%/*}; [ -n "$d" ] || d=/; }
kind() {
  if [ -L "$1" ]; then K=symlink; elif [ -f "$1" ]; then K=file; elif [ -d "$1" ]; then K=dir
  elif [ -e "$1" ]; then K=other; else K=; fi
}
# New file from base64 on stdin: never over an existing one (noclobber), owner, mode, fsync.
create() { # path mode uid gid
  if [ -e "$1" ] || [ -L "$1" ]; then fail 4 "$1 already exists"; fi
  if ! ( set -C; base64 -d > "$1" ); then rm -f "$1"; fail 1 "cannot write $1"; fi
  if [ -n "$3" ]; then chown "$3:$4" "$1" || { rm -f "$1"; fail 1 "cannot chown $1"; }; fi
  chmod "$2" "$1" || { rm -f "$1"; fail 1 "cannot chmod $1"; }
  fsync "$1"
}
case $op in
  stat) # path follow(0|1): "kind mode uid gid mtime size"
    p=$1
    if [ "$2" = 1 ]; then [ -e "$p" ] || exit 3; p=$(readlink -f "$p") || exit 3; fi
    kind "$p"; [ -n "$K" ] || exit 3
    s=$(stat -c '%a %u %g %Y %s' "$p") || fail 1 "cannot stat $p"
    printf '%s %s\\n' "$K" "$s" ;;
  read) # path nofollow(0|1): the owner's uid on one line, then the bytes as base64
    if [ "$2" = 1 ] && [ -L "$1" ]; then fail 5 "$1 is a symlink; it was not read"; fi
    [ -e "$1" ] || exit 3
    [ -f "$1" ] || fail 5 "$1 is not a regular file; it was not read"
    stat -L -c %u "$1" || fail 1 "cannot stat $1"
    base64 < "$1" || fail 1 "cannot read $1" ;;
  list) # dir: one base64 name per line
    [ -e "$1" ] || exit 3
    [ -d "$1" ] || fail 1 "$1 is not a directory"
    for e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
      [ -e "$e" ] || [ -L "$e" ] || continue
      printf '%s' "\${e##*/}" | base64 | tr -d '\\n'; echo
    done ;;
  create) create "$1" "$2" "\${3:-}" "\${4:-}"; dir_of "$1"; fsync "$d" ;;
  replace) # path tmpdir tmpname mode uid gid: atomic replace; through a symlink, of its target
    t=$1
    if [ -L "$t" ]; then t=$(readlink -f "$t") || fail 1 "cannot resolve $1"; fi
    if [ -d "$t" ]; then fail 1 "$t is a directory"; fi
    tmp=$2/$3
    create "$tmp" "$4" "\${5:-}" "\${6:-}"
    mv -f "$tmp" "$t" || { rm -f "$tmp"; fail 1 "cannot rename $tmp to $t"; }
    dir_of "$t"; fsync "$d"; [ "$2" = "$d" ] || fsync "$2" ;;
  rename) # from to: never over an existing file
    if [ -e "$2" ] || [ -L "$2" ]; then fail 4 "$2 already exists; refusing to overwrite it"; fi
    if [ ! -e "$1" ] && [ ! -L "$1" ]; then exit 3; fi
    mv -f "$1" "$2" || fail 1 "cannot rename $1 to $2"
    dir_of "$2"; fsync "$d"; t=$d; dir_of "$1"; [ "$d" = "$t" ] || fsync "$d" ;;
  remove) # path (a file or link; never a directory tree)
    if [ -d "$1" ] && [ ! -L "$1" ]; then fail 1 "$1 is a directory"; fi
    rm -f "$1" || fail 1 "cannot remove $1"
    dir_of "$1"; fsync "$d" ;;
  canwrite) # path: its directory writable, and the file when it exists
    t=$1
    if [ -L "$t" ]; then t=$(readlink -f "$t") || exit 1; fi
    dir_of "$t"; [ -w "$d" ] || exit 1
    if [ -e "$t" ]; then [ -w "$t" ] || exit 1; fi ;;
  realpath) # path follow(0|1)
    if [ "$2" = 1 ] && [ -e "$1" ]; then r=$(readlink -f "$1") || exit 1
    else dir_of "$1"; d=$(readlink -f "$d") || exit 1; r=\${d%/}/\${1##*/}; fi
    printf '%s\\n' "$r" ;;
  walk) # create(0|1) dir...: per component, parents first, "kind mode uid" or "missing";
    # stops at the first component that is not a safe directory, so nothing is ever created
    # below a link or a directory another user can change.
    c=$1; shift; me=$(id -u)
    for p in "$@"; do
      kind "$p"
      if [ -z "$K" ] && [ "$c" = 1 ]; then mkdir -m 700 "$p" 2>/dev/null; kind "$p"; fi
      if [ -z "$K" ]; then echo missing; break; fi
      s=$(stat -c '%a %u' "$p") || fail 1 "cannot stat $p"
      echo "$K $s"
      a=\${s% *}; u=\${s#* }
      [ "$K" = dir ] || break
      if [ "$u" != 0 ] && [ "$u" != "$me" ]; then break; fi
      if [ $((0$a & 022)) -ne 0 ] && [ $((0$a & 01000)) -eq 0 ]; then break; fi
    done ;;
  chmod700) chmod 700 "$1" || fail 1 "cannot chmod $1" ;;
  fsync) fsync "$1" ;;
  uid) id -u ;;
  *) fail 1 "unknown operation $op" ;;
esac
`;
