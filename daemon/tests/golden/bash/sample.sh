#!/usr/bin/env bash
# Rotates and compresses application logs, keeping a fixed number of archives.
set -euo pipefail

readonly LOG_DIR="${LOG_DIR:-/var/log/app}"
readonly KEEP=7
declare -r COMPRESSOR="gzip"
export ROTATE_VERBOSE="${ROTATE_VERBOSE:-0}"
DRY_RUN=0
archive_count=0

log() {
  if [[ "$ROTATE_VERBOSE" == 1 ]]; then
    printf '%s %s\n' "$(date +%FT%T)" "$*" >&2
  fi
}

die() {
  log "fatal: $*"
  exit 1
}

function usage {
  cat <<USAGE
Usage: ${0##*/} [-n] [-k count]
  -n  dry run
  -k  archives to keep (default: $KEEP)
USAGE
}

function rotate_file() {
  local file="$1" stamp
  stamp="$(date +%Y%m%d%H%M%S)"
  if (( DRY_RUN )); then
    log "would rotate $file"
    return 0
  fi
  mv -- "$file" "$file.$stamp"
  "$COMPRESSOR" -- "$file.$stamp"
  archive_count=$((archive_count + 1))
}

prune_archives() {
  local base="$1" keep="${2:-$KEEP}"
  local -a archives
  mapfile -t archives < <(ls -1t -- "$base".*.gz 2>/dev/null || true)
  cleanup() {
    rm -f -- "${archives[@]:keep}"
  }
  if (( ${#archives[@]} > keep )); then
    cleanup
  fi
}

main() {
  while getopts ":nk:" opt; do
    case "$opt" in
      n) DRY_RUN=1 ;;
      k) KEEP_OVERRIDE="$OPTARG" ;;
      *) usage; die "unknown option -$OPTARG" ;;
    esac
  done
  [[ -d "$LOG_DIR" ]] || die "missing $LOG_DIR"
  for file in "$LOG_DIR"/*.log; do
    rotate_file "$file"
    prune_archives "$file" "${KEEP_OVERRIDE:-$KEEP}"
  done
  log "rotated $archive_count file(s)"
}

main "$@"
