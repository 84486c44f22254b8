#!/bin/sh
# collect.sh: the Tunebook capture kit, for the server being tuned.
#
#   sh collect.sh [-d SECONDS] [-o FILE.tar.gz] [-- COMMAND ARGS...]
#
# Records the machine's facts (lscpu, /proc/cpuinfo, free, /proc/meminfo, lsblk, fdisk -l,
# tune2fs -l of each mounted ext2/3/4 device, uname -a, os-release, sysctl -a, ulimit -a,
# /proc/self/limits) and, for SECONDS (default 60), the first-minutes checklist: uptime, free -m,
# ss -s and /proc/interrupts at the start and at the end, and in the background vmstat 1,
# mpstat -P ALL 1, pidstat 1, iostat -xz 1, sar -n DEV 1, sar -n TCP,ETCP 1 and top -b -d 1.
# With a COMMAND (a load generator: `sh collect.sh -- ab -n 10000 -c 100 http://...`), the
# monitors start 1 s before it and stop 3 s after it ends (or after -d SECONDS, if that is later);
# its output is shown and kept. Everything goes into one .tar.gz with a manifest.
#
# It needs a POSIX shell, awk, sed, tar (with -z), date, mkdir, rm, cat, tee and sleep, and uses
# whichever of the other tools it finds: a missing tool is skipped and said so. It runs as any
# user, reads only, writes nothing but its temporary folder (under $TMPDIR, removed at the end)
# and the archive, and changes nothing on the machine. Ctrl+C stops the monitors, removes the
# temporary folder and writes no archive. LC_ALL=C for stable number formats.
#
# Archive layout (one top folder, tunebook-HOST-UTCSTAMP/):
#   manifest.json                 what was run, see below
#   facts/lscpu.txt ...           one file per fact: the tool's stdout; its stderr, when it said
#   snapshots/uptime-start.txt    something, beside it as the same name with .err for .txt
#   snapshots/uptime-end.txt ...
#   monitors/vmstat-1.txt ...
#   command/stdout.txt, command/stderr.txt   the COMMAND's output, when one was given
#
# manifest.json: one JSON object (UTF-8 when the strings are; each entry on one line):
#   format "tunebook-kit", formatVersion 1, kitVersion, hostname, user, uid, shell, mode
#   ("duration" | "command"), durationSeconds (null in command mode without -d), tailSeconds,
#   started, startedEpoch, ended, endedEpoch, and entries: one object per thing run or skipped:
#     file        path in the archive below the top folder (null when skipped)
#     stderrFile  the .err beside it, or null when the tool wrote nothing on stderr
#     phase       "facts" | "snapshot" | "monitor" | "command"
#     tool        the program (or the /proc file, or "ulimit" for the shell builtin)
#     path        where the program was found, or null
#     command     the exact command line run, shell-quoted
#     argv        (command phase only) the COMMAND's arguments as an array
#     version     the first line of the tool's --version/-V, or null
#     start, end  UTC ISO-8601 to the second; startEpoch, endEpoch: seconds since 1970
#     exitStatus  the exit status (a monitor stopped by the kit: usually 143, from SIGTERM)
#     stoppedByKit  true when the kit ended it (a monitor at the end of the duration)
#     status      "ok" | "failed" (ran, but exited non-zero or wrote only errors) | "skipped"
#     reason      why it failed or was skipped (the first line of its stderr …), else null
#     bytes       the size of its stdout file
#     note        anything else worth knowing (e.g. sysctl keys not readable), else null
# Exit status: 0 done, 1 could not finish, 2 bad arguments, killed by SIGINT/SIGTERM when stopped.

set -u
KIT_VERSION=1.0.1
PROG=collect.sh
LEAD=1
TAIL=3
MAX_SECONDS=86400
LC_ALL=C
export LC_ALL
# sysctl, fdisk and tune2fs live in sbin, which many users' PATH leaves out
case ":${PATH:-}:" in *:/usr/sbin:*) ;; *) PATH=${PATH:+$PATH:}/usr/sbin ;; esac
case ":$PATH:" in *:/sbin:*) ;; *) PATH=$PATH:/sbin ;; esac
export PATH

usage() {
  cat <<'EOF'
Usage: sh collect.sh [-d SECONDS] [-o FILE.tar.gz] [-- COMMAND ARGS...]

Records this machine's facts and, for SECONDS or while COMMAND runs, vmstat, mpstat, pidstat,
iostat, sar, top and snapshots of uptime, free, ss and /proc/interrupts, into one .tar.gz with a
manifest.json. Missing tools are skipped. Reads only; needs no root.

  -d SECONDS   how long to monitor, 1-86400 (default 60); with a COMMAND, the least time
               (without -d, monitoring ends 3 s after the COMMAND)
  -o FILE      the archive to write (default ./tunebook-HOST-UTCSTAMP.tar.gz); must not exist
  -h           show this help
  -- COMMAND   run COMMAND ARGS... (e.g. a load generator) while monitoring; its output is
               shown and kept, its exit status recorded
EOF
}

say() { printf '%s: %s\n' "$PROG" "$*" >&2; }
die() { say "$*"; exit 1; }
usage_error() { say "$1"; usage >&2; exit 2; }

# ---- arguments -------------------------------------------------------------------------------
SECONDS_ARG=''
SECONDS_GIVEN=''
OUT=''
while getopts ':d:o:h' opt; do
  case $opt in
    d) SECONDS_ARG=$OPTARG SECONDS_GIVEN=1 ;;
    o) OUT=$OPTARG ;;
    h) usage; exit 0 ;;
    :) usage_error "option -$OPTARG needs a value" ;;
    *) usage_error "unknown option -$OPTARG" ;;
  esac
done
shift $((OPTIND - 1))

DURATION=60
if [ -n "$SECONDS_GIVEN" ]; then
  case $SECONDS_ARG in
    '' | *[!0-9]*) usage_error "-d wants a whole number of seconds, not '$SECONDS_ARG'" ;;
  esac
  # no leading zeros: the shell would read 010 as octal
  DURATION=$(printf '%s\n' "$SECONDS_ARG" | sed 's/^0*//')
  if [ -z "$DURATION" ] || [ ${#DURATION} -gt 6 ] || [ "$DURATION" -lt 1 ] || [ "$DURATION" -gt "$MAX_SECONDS" ]; then
    usage_error "-d must be between 1 and $MAX_SECONDS seconds, not '$SECONDS_ARG'"
  fi
fi
MODE=duration
if [ $# -gt 0 ]; then
  MODE='command'
  command -v "$1" >/dev/null 2>&1 || usage_error "command not found: $1"
fi

for t in awk sed tar date mkdir rm cat tee sleep; do
  command -v "$t" >/dev/null 2>&1 || die "needs $t, which is not in PATH"
done

HOST=$(hostname 2>/dev/null) || HOST=''
[ -n "$HOST" ] || HOST=$(uname -n 2>/dev/null) || HOST=''
[ -n "$HOST" ] || HOST=unknown
SAFE_HOST=$(printf '%s' "$HOST" | sed 's/[^A-Za-z0-9._-]/-/g')
STEM=tunebook-$SAFE_HOST-$(date -u +%Y%m%dT%H%M%SZ)
[ -n "$OUT" ] || OUT=$STEM.tar.gz
case $OUT in
  /*) ;;
  *) OUT=$(pwd)/$OUT ;;
esac
case $OUT in */) usage_error "-o wants a file name, not a folder: $OUT" ;; esac
[ -e "$OUT" ] && usage_error "$OUT already exists; choose another with -o"
OUT_DIR=${OUT%/*}
[ -n "$OUT_DIR" ] || OUT_DIR=/
[ -d "$OUT_DIR" ] || usage_error "no such folder: $OUT_DIR"
[ -w "$OUT_DIR" ] || usage_error "cannot write in $OUT_DIR; choose another place with -o"

# ---- temporary folder and clean-up -----------------------------------------------------------
umask 077
T=''
R=''
MONITORS=''
MON_PENDING=''
MON_BEFORE=''
CLEANED=''
KEEP_TMP=''

# ids of monitors started (listed before their subshell is forked); each has $R/ID.sub (the
# subshell, written by this shell just after the fork), $R/ID.pid (the tool, written by the
# subshell) and $R/ID.rc once it has ended
stop_monitors() {
  sm_pids=''
  for sm_id in $MONITORS; do
    [ -e "$R/$sm_id.rc" ] && continue
    monitor_sub "$sm_id"
    [ -n "$ms_sub" ] || continue
    sm_pid=''
    sm_try=0
    while [ $sm_try -lt 5 ]; do
      sm_pid=$(cat "$R/$sm_id.pid" 2>/dev/null) || sm_pid=''
      [ -n "$sm_pid" ] && break
      # a signal that lands as the subshell is forked can end it before it starts the tool
      gone "$ms_sub" && [ ! -s "$R/$sm_id.pid" ] && break
      sm_try=$((sm_try + 1))
      sleep 1
    done
    [ -n "$sm_pid" ] || continue
    : >"$R/$sm_id.stopped"
    kill -TERM "$sm_pid" 2>/dev/null
    sm_pids="$sm_pids $sm_pid"
  done
  # sar runs sadc, which outlives a sar that ends on a Ctrl+C of its own
  # shellcheck disable=SC2086
  sm_strays=$(strays $sm_pids)
  for sm_pid in $sm_strays; do kill -TERM "$sm_pid" 2>/dev/null; done
  # give them 3 s to end, then SIGKILL what is left
  sm_try=0
  # shellcheck disable=SC2086
  while [ $sm_try -lt 3 ] && ! gone $sm_pids $sm_strays; do sm_try=$((sm_try + 1)); sleep 1; done
  for sm_pid in $sm_pids $sm_strays; do kill -KILL "$sm_pid" 2>/dev/null; done
  wait
}

# sets ms_sub to the pid of monitor ID's subshell, or to nothing when it was never forked (a
# trap can run between any two commands of monitor(), the fork and the line that records it too)
monitor_sub() {
  ms_sub=''
  if [ -s "$R/$1.sub" ]; then
    ms_sub=$(cat "$R/$1.sub")
  elif [ "$1" = "$MON_PENDING" ] && [ "${!-}" != "$MON_BEFORE" ]; then
    ms_sub=$!
  fi
}

# field N (3 = ppid, 4 = process group) of /proc/PID/stat, after the "(name)"
stat_field() {
  sf_line=''
  { read -r sf_line <"/proc/$1/stat"; } 2>/dev/null || return 0
  sf_line=${sf_line##*) }
  sf_n=2
  while [ $sf_n -lt "$2" ]; do sf_line=${sf_line#* }; sf_n=$((sf_n + 1)); done
  printf '%s\n' "${sf_line%% *}"
}

# the processes of this kit's process group that are children of the given pids, or sadc
strays() {
  st_group=$(stat_field $$ 4)
  [ -n "$st_group" ] || return 0
  for st_stat in /proc/[0-9]*/stat; do
    st_line=''
    { read -r st_line <"$st_stat"; } 2>/dev/null || continue
    st_pid=${st_line%% *}
    st_name=${st_line#*(}
    st_name=${st_name%)*}
    st_rest=${st_line##*) }
    st_rest=${st_rest#* }
    st_ppid=${st_rest%% *}
    st_rest=${st_rest#* }
    [ "${st_rest%% *}" = "$st_group" ] || continue
    [ "$st_pid" = $$ ] && continue
    if [ "$st_name" = sadc ]; then printf '%s\n' "$st_pid"; continue; fi
    for st_parent in "$@"; do
      [ "$st_ppid" = "$st_parent" ] && printf '%s\n' "$st_pid"
    done
  done
}

# whether none of these pids is running (a zombie counts as ended)
gone() {
  for go_pid in "$@"; do
    go_state=$(stat_field "$go_pid" 2)
    [ -z "$go_state" ] || [ "$go_state" = Z ] || return 1
  done
  return 0
}

monitors_done() {
  for md_id in $MONITORS; do [ -e "$R/$md_id.rc" ] || return 1; done
  return 0
}

cleanup() {
  [ -z "$CLEANED" ] || return 0
  CLEANED=1
  [ -n "$R" ] && stop_monitors
  [ -n "$T" ] && [ -z "$KEEP_TMP" ] && rm -rf "$T"
  return 0
}

on_signal() {
  # clean up first, and ignore SIGPIPE: the reader of our stderr may be gone already
  trap '' INT TERM HUP PIPE
  cleanup
  say "stopped ($1): no archive written"
  trap - EXIT INT TERM HUP
  kill -"$1" $$
  exit 1
}

trap 'cleanup' EXIT
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
trap 'on_signal HUP' HUP

T=$(mktemp -d "${TMPDIR:-/tmp}/tunebook-kit.XXXXXX" 2>/dev/null) || T=''
if [ -z "$T" ]; then
  T=${TMPDIR:-/tmp}/tunebook-kit.$$
  mkdir "$T" 2>/dev/null || { T=''; die "cannot make a temporary folder in ${TMPDIR:-/tmp}"; }
fi
K=$T/$STEM
mkdir "$T/run" "$K" "$K/facts" "$K/snapshots" "$K/monitors" || die "cannot write in $T"
R=$T/run
ENTRIES=$R/entries.jsonl
: >"$ENTRIES"

# ---- helpers ---------------------------------------------------------------------------------
# "EPOCH ISO-8601" now, in UTC
stamp() { date -u '+%s %Y-%m-%dT%H:%M:%SZ'; }
epoch() { date -u +%s; }

# JSON from awk: esc() quotes a string (backslash, quote and control characters escaped)
AWK_JSON='
BEGIN { for (i = 1; i < 32; i++) ctl[sprintf("%c", i)] = sprintf("\\u%04x", i); ctl[sprintf("%c", 127)] = "\\u007f" }
function esc(s,    out, i, n, c) {
  out = ""; n = length(s)
  for (i = 1; i <= n; i++) {
    c = substr(s, i, 1)
    if (c == "\\") out = out "\\\\"
    else if (c == "\"") out = out "\\\""
    else if (c in ctl) out = out ctl[c]
    else out = out c
  }
  return "\"" out "\""
}
function str(s) { return s == "" ? "null" : esc(s) }
function num(s) { return s ~ /^-?[0-9]+$/ ? s : "null" }
function bool(s) { return s == "1" ? "true" : "false" }
'

# one JSON string for $1
json_string() { JS_V=$1 awk "$AWK_JSON"'BEGIN { print esc(ENVIRON["JS_V"]) }'; }

# the first non-blank line of a file, at most 300 characters
first_line() { [ -s "$1" ] && awk 'NF { sub(/\r$/, ""); print substr($0, 1, 300); exit }' "$1"; }

# a command line, each word shell-quoted when it needs to be
quote_args() {
  qa_out=''
  for qa_arg in "$@"; do
    case $qa_arg in
      '' | *[!A-Za-z0-9_@%+=:,./-]*)
        qa_arg="'$(printf '%s' "$qa_arg" | sed "s/'/'\\\\''/g")'" ;;
    esac
    qa_out=${qa_out:+$qa_out }$qa_arg
  done
  printf '%s' "$qa_out"
}

# the first line of the tool's version, for the tools known to have one (never run anything else)
version_of() {
  case ${1##*/} in
    lscpu | lsblk | fdisk | uname | sysctl | fio | sysbench | redis-benchmark | locust) vo_flag=--version ;;
    free | uptime | vmstat | top | mpstat | pidstat | iostat | sar | ss | ab) vo_flag=-V ;;
    *) return 0 ;;
  esac
  vo_out=$("$1" "$vo_flag" </dev/null 2>&1) || return 0
  printf '%s\n' "$vo_out" | awk 'NF { sub(/\r$/, ""); print substr($0, 1, 300); exit }'
}

# why a tool is missing, with its Debian/RHEL package
missing() {
  case $1 in
    mpstat | pidstat | iostat | sar) mi_pkg=sysstat ;;
    vmstat | free | top | uptime | sysctl) mi_pkg=procps ;;
    ss) mi_pkg=iproute2 ;;
    lscpu | lsblk) mi_pkg=util-linux ;;
    fdisk) mi_pkg='fdisk or util-linux' ;;
    tune2fs) mi_pkg=e2fsprogs ;;
    *) mi_pkg='' ;;
  esac
  printf '%s' "$1 not found in PATH${mi_pkg:+ (package: $mi_pkg)}"
}

# entry PHASE FILE TOOL PATH COMMAND VERSION START END RC STOPPED [ARGV_JSON] [REASON] [NOTE]
# START/END are "EPOCH ISO"; an empty FILE means skipped (REASON says why). Judges the status.
entry() {
  en_file=$2
  en_err=''
  en_status=skipped
  en_reason=${12:-}
  en_bytes=''
  if [ -n "$en_file" ]; then
    en_err=${en_file%.txt}.err
    if [ "$1" = command ]; then
      en_err=command/stderr.txt
    elif [ ! -s "$K/$en_err" ]; then
      rm -f "$K/$en_err"
      en_err=''
    fi
    en_bytes=$(wc -c <"$K/$en_file" 2>/dev/null | awk '{ print $1 }')
    en_first=''
    [ -n "$en_err" ] && en_first=$(first_line "$K/$en_err")
    if [ "${10}" = 1 ]; then
      en_status=ok
    elif [ "$9" != 0 ]; then
      en_status=failed
      [ -n "$en_reason" ] || en_reason="exit status $9${en_first:+: $en_first}"
    elif [ "$1" != command ] && [ ! -s "$K/$en_file" ] && [ -n "$en_err" ]; then
      en_status=failed
      [ -n "$en_reason" ] || en_reason="no output: $en_first"
    else
      en_status=ok
    fi
  fi
  E_PHASE=$1 E_FILE=$en_file E_ERR=$en_err E_TOOL=$3 E_PATH=$4 E_CMD=$5 E_VER=$6 \
  E_START=$7 E_END=$8 E_RC=$9 E_STOP=${10} E_ARGV=${11:-} E_STATUS=$en_status E_REASON=$en_reason \
  E_BYTES=$en_bytes E_NOTE=${13:-} awk "$AWK_JSON"'
  function iso(s) { sub(/^[^ ]* ?/, "", s); return str(s) }
  function ep(s) { sub(/ .*/, "", s); return num(s) }
  BEGIN {
    e["x"] = ""
    printf "{\"file\": %s, \"stderrFile\": %s, \"phase\": %s, \"tool\": %s, \"path\": %s, \"command\": %s, ", \
      str(ENVIRON["E_FILE"]), str(ENVIRON["E_ERR"]), str(ENVIRON["E_PHASE"]), str(ENVIRON["E_TOOL"]), \
      str(ENVIRON["E_PATH"]), str(ENVIRON["E_CMD"])
    if (ENVIRON["E_ARGV"] != "") printf "\"argv\": %s, ", ENVIRON["E_ARGV"]
    printf "\"version\": %s, \"start\": %s, \"startEpoch\": %s, \"end\": %s, \"endEpoch\": %s, ", \
      str(ENVIRON["E_VER"]), iso(ENVIRON["E_START"]), ep(ENVIRON["E_START"]), iso(ENVIRON["E_END"]), ep(ENVIRON["E_END"])
    printf "\"exitStatus\": %s, \"stoppedByKit\": %s, \"status\": %s, \"reason\": %s, \"bytes\": %s, \"note\": %s}\n", \
      num(ENVIRON["E_RC"]), bool(ENVIRON["E_STOP"]), str(ENVIRON["E_STATUS"]), str(ENVIRON["E_REASON"]), \
      num(ENVIRON["E_BYTES"]), str(ENVIRON["E_NOTE"])
  }' >>"$ENTRIES"
}

skip() { # PHASE TOOL COMMAND REASON
  say "skipped $3: $4"
  entry "$1" '' "$2" '' "$3" '' '' '' '' 0 '' "$4"
}

# run PHASE FILE TOOL COMMAND...: run it now, stdout to FILE, stderr beside it
run() {
  ru_phase=$1 ru_file=$2 ru_tool=$3
  shift 3
  ru_cmd=$(quote_args "$@")
  if ! ru_path=$(command -v "$ru_tool" 2>/dev/null); then
    skip "$ru_phase" "$ru_tool" "$ru_cmd" "$(missing "$ru_tool")"
    return 0
  fi
  ru_ver=$(version_of "$ru_path")
  ru_start=$(stamp)
  "$@" >"$K/$ru_file" 2>"$K/${ru_file%.txt}.err" </dev/null
  ru_rc=$?
  ru_end=$(stamp)
  ru_note=''
  case $ru_tool in
    tune2fs) ru_ver=$(cat "$K/$ru_file" "$K/${ru_file%.txt}.err" 2>/dev/null | awk '/^tune2fs [0-9]/ { print; exit }') ;;
    sysctl)
      ru_denied=$(awk '/denied/ { n++ } END { print n + 0 }' "$K/${ru_file%.txt}.err")
      [ "$ru_denied" = 0 ] || ru_note="$ru_denied keys not readable (permission denied), listed in ${ru_file%.txt}.err" ;;
  esac
  entry "$ru_phase" "$ru_file" "$ru_tool" "$ru_path" "$ru_cmd" "$ru_ver" "$ru_start" "$ru_end" "$ru_rc" 0 '' '' "$ru_note"
}

# read PHASE FILE SOURCE...: copy the first readable SOURCE (a /proc file, os-release)
copy_file() {
  cf_phase=$1 cf_file=$2
  shift 2
  for cf_src in "$@"; do
    [ -r "$cf_src" ] || continue
    cf_start=$(stamp)
    cat "$cf_src" >"$K/$cf_file" 2>"$K/${cf_file%.txt}.err"
    cf_rc=$?
    cf_end=$(stamp)
    entry "$cf_phase" "$cf_file" "$cf_src" "$(command -v cat)" "cat $cf_src" '' "$cf_start" "$cf_end" "$cf_rc" 0
    return 0
  done
  skip "$cf_phase" "$1" "cat $1" "$* not readable"
}

# monitor ID FILE TOOL COMMAND...: start it in the background now
monitor() {
  mo_id=$1 mo_file=$2 mo_tool=$3
  shift 3
  mo_cmd=$(quote_args "$@")
  if ! mo_path=$(command -v "$mo_tool" 2>/dev/null); then
    skip monitor "$mo_tool" "$mo_cmd" "$(missing "$mo_tool")"
    return 0
  fi
  printf '%s\n' "$mo_file" >"$R/$mo_id.file"
  printf '%s\n' "$mo_tool" >"$R/$mo_id.tool"
  printf '%s\n' "$mo_path" >"$R/$mo_id.path"
  printf '%s\n' "$mo_cmd" >"$R/$mo_id.cmd"
  version_of "$mo_path" >"$R/$mo_id.version"
  # listed before the fork: a signal trapped between the fork and the line after must still stop it
  MONITORS="$MONITORS $mo_id"
  MON_BEFORE=${!-}
  MON_PENDING=$mo_id
  (
    stamp >"$R/$mo_id.start"
    "$@" >"$K/$mo_file" 2>"$K/${mo_file%.txt}.err" </dev/null &
    echo $! >"$R/$mo_id.pid"
    wait $!
    mo_rc=$?
    stamp >"$R/$mo_id.end"
    echo "$mo_rc" >"$R/$mo_id.rc"
  ) >/dev/null 2>&1 &
  echo $! >"$R/$mo_id.sub"
  MON_PENDING=''
}

# the manifest entries of the monitors, once they have ended
monitor_entries() {
  for me_id in $MONITORS; do
    me_stopped=0
    [ -e "$R/$me_id.stopped" ] && me_stopped=1
    entry monitor "$(cat "$R/$me_id.file")" "$(cat "$R/$me_id.tool")" "$(cat "$R/$me_id.path")" \
      "$(cat "$R/$me_id.cmd")" "$(cat "$R/$me_id.version")" "$(cat "$R/$me_id.start" 2>/dev/null)" \
      "$(cat "$R/$me_id.end" 2>/dev/null)" "$(cat "$R/$me_id.rc" 2>/dev/null)" "$me_stopped"
  done
}

snapshots() { # start|end
  run snapshot "snapshots/uptime-$1.txt" uptime uptime
  run snapshot "snapshots/free-m-$1.txt" free free -m
  run snapshot "snapshots/ss-s-$1.txt" ss ss -s
  copy_file snapshot "snapshots/proc-interrupts-$1.txt" /proc/interrupts
}

# ---- facts -----------------------------------------------------------------------------------
STARTED=$(stamp)
say "recording the machine's facts"
run facts facts/lscpu.txt lscpu lscpu
copy_file facts facts/proc-cpuinfo.txt /proc/cpuinfo
run facts facts/free.txt free free
copy_file facts facts/proc-meminfo.txt /proc/meminfo
run facts facts/lsblk.txt lsblk lsblk
run facts facts/fdisk-l.txt fdisk fdisk -l
TUNE_DEVICES=''
[ -r /proc/mounts ] && TUNE_DEVICES=$(awk '$3 ~ /^ext[234]$/ && $1 ~ /^\/dev\// && !seen[$1]++ { print $1 }' /proc/mounts)
if [ -z "$TUNE_DEVICES" ]; then
  skip facts tune2fs 'tune2fs -l DEVICE' 'no ext2/ext3/ext4 file system mounted from a /dev device'
else
  for dev in $TUNE_DEVICES; do
    run facts "facts/tune2fs-l$(printf '%s' "$dev" | sed 's/[^A-Za-z0-9._]/-/g').txt" tune2fs tune2fs -l "$dev"
  done
fi
run facts facts/uname-a.txt uname uname -a
copy_file facts facts/os-release.txt /etc/os-release /usr/lib/os-release
run facts facts/sysctl-a.txt sysctl sysctl -a
# ulimit is the shell's own: the limits this shell (and the COMMAND) run with. POSIX defines only
# ulimit -f, but dash, bash, ksh, zsh and busybox ash all have -a; a shell without it fails here
# and the entry says so.
UL_START=$(stamp)
# shellcheck disable=SC3045
ulimit -a >"$K/facts/ulimit-a.txt" 2>"$K/facts/ulimit-a.err"
UL_RC=$?
UL_END=$(stamp)
SHELL_PATH=$(readlink "/proc/$$/exe" 2>/dev/null) || SHELL_PATH=''
entry facts facts/ulimit-a.txt ulimit "${SHELL_PATH:+$SHELL_PATH (builtin)}" 'ulimit -a' '' "$UL_START" "$UL_END" "$UL_RC" 0
copy_file facts facts/proc-self-limits.txt /proc/self/limits

# ---- the checklist ---------------------------------------------------------------------------
snapshots start
MON_START=$(epoch)
if [ "$MODE" = duration ]; then
  say "monitoring for $DURATION s (Ctrl+C stops and writes nothing)"
  COUNT=$DURATION
  monitor vmstat monitors/vmstat-1.txt vmstat vmstat 1 "$COUNT"
  monitor mpstat monitors/mpstat-P-ALL-1.txt mpstat mpstat -P ALL 1 "$COUNT"
  monitor pidstat monitors/pidstat-1.txt pidstat pidstat 1 "$COUNT"
  monitor iostat monitors/iostat-xz-1.txt iostat iostat -xz 1 "$COUNT"
  monitor sardev monitors/sar-n-DEV-1.txt sar sar -n DEV 1 "$COUNT"
  monitor sartcp monitors/sar-n-TCP,ETCP-1.txt sar sar -n TCP,ETCP 1 "$COUNT"
  monitor top monitors/top-b-d-1.txt top top -b -d 1 -n "$COUNT"
  # the monitors end by themselves after COUNT samples; wait for them (and at least the duration)
  while [ $(($(epoch) - MON_START)) -lt "$DURATION" ]; do
    monitors_done && [ $(($(epoch) - MON_START)) -ge $((DURATION - 1)) ] && break
    sleep 1
  done
  while ! monitors_done && [ $(($(epoch) - MON_START)) -lt $((DURATION + 15)) ]; do sleep 1; done
else
  monitor vmstat monitors/vmstat-1.txt vmstat vmstat 1
  monitor mpstat monitors/mpstat-P-ALL-1.txt mpstat mpstat -P ALL 1
  monitor pidstat monitors/pidstat-1.txt pidstat pidstat 1
  monitor iostat monitors/iostat-xz-1.txt iostat iostat -xz 1
  monitor sardev monitors/sar-n-DEV-1.txt sar sar -n DEV 1
  monitor sartcp monitors/sar-n-TCP,ETCP-1.txt sar sar -n TCP,ETCP 1
  monitor top monitors/top-b-d-1.txt top top -b -d 1
  sleep "$LEAD"
  mkdir "$K/command" || die "cannot write in $K"
  CMD_LINE=$(quote_args "$@")
  CMD_ARGV=''
  for arg in "$@"; do CMD_ARGV=${CMD_ARGV:+$CMD_ARGV, }$(json_string "$arg"); done
  CMD_PATH=$(command -v "$1")
  CMD_VERSION=$(version_of "$CMD_PATH")
  say "running: $CMD_LINE"
  CMD_START=$(stamp)
  # stdout and stderr each to the terminal and to a file; the status through a file (no pipefail)
  { { { "$@" 3>&-; echo $? >"$R/command.rc"; } | tee "$K/command/stdout.txt"; } 2>&1 1>&3 3>&- | tee "$K/command/stderr.txt" >&2; } 3>&1
  CMD_END=$(stamp)
  CMD_RC=$(cat "$R/command.rc" 2>/dev/null) || CMD_RC=''
  say "the command ended with status ${CMD_RC:-unknown}; monitoring $TAIL s more"
  sleep "$TAIL"
  if [ -n "$SECONDS_GIVEN" ]; then
    while [ $(($(epoch) - MON_START)) -lt "$DURATION" ]; do sleep 1; done
  fi
  entry command command/stdout.txt "${1##*/}" "$CMD_PATH" "$CMD_LINE" "$CMD_VERSION" "$CMD_START" "$CMD_END" "${CMD_RC:-}" 0 "[$CMD_ARGV]"
fi
stop_monitors
monitor_entries
snapshots end
ENDED=$(stamp)

# ---- manifest and archive --------------------------------------------------------------------
M_DURATION=$DURATION
[ "$MODE" = command ] && [ -z "$SECONDS_GIVEN" ] && M_DURATION=''
{
  M_HOST=$HOST M_USER=$(id -un 2>/dev/null) M_UID=$(id -u 2>/dev/null) M_SHELL=$SHELL_PATH M_MODE=$MODE \
  M_DURATION=$M_DURATION M_TAIL=$TAIL M_STARTED=$STARTED M_ENDED=$ENDED M_KIT=$KIT_VERSION awk "$AWK_JSON"'
  function iso(s) { sub(/^[^ ]* ?/, "", s); return str(s) }
  function ep(s) { sub(/ .*/, "", s); return num(s) }
  BEGIN {
    print "{"
    printf "  \"format\": \"tunebook-kit\",\n  \"formatVersion\": 1,\n  \"kitVersion\": %s,\n", str(ENVIRON["M_KIT"])
    printf "  \"hostname\": %s,\n  \"user\": %s,\n  \"uid\": %s,\n  \"shell\": %s,\n", \
      str(ENVIRON["M_HOST"]), str(ENVIRON["M_USER"]), num(ENVIRON["M_UID"]), str(ENVIRON["M_SHELL"])
    printf "  \"mode\": %s,\n  \"durationSeconds\": %s,\n  \"tailSeconds\": %s,\n", \
      str(ENVIRON["M_MODE"]), num(ENVIRON["M_DURATION"]), (ENVIRON["M_MODE"] == "command" ? num(ENVIRON["M_TAIL"]) : "null")
    printf "  \"started\": %s,\n  \"startedEpoch\": %s,\n  \"ended\": %s,\n  \"endedEpoch\": %s,\n", \
      iso(ENVIRON["M_STARTED"]), ep(ENVIRON["M_STARTED"]), iso(ENVIRON["M_ENDED"]), ep(ENVIRON["M_ENDED"])
    print "  \"entries\": ["
  }'
  sed '$!s/$/,/; s/^/    /' "$ENTRIES"
  printf '  ]\n}\n'
} >"$K/manifest.json" || die "cannot write the manifest"

if ! tar -czf "$OUT" -C "$T" "$STEM" 2>"$R/tar.err"; then
  say "tar failed: $(first_line "$R/tar.err")"
  rm -f "$OUT"
  KEEP_TMP=1
  die "the files are kept in $K"
fi
cleanup
trap - EXIT
say "wrote $OUT"
