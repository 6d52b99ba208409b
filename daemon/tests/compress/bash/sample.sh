#!/usr/bin/env bash
# Copyright 2024 Example Corp.
# Rotates log files.
set -euo pipefail

readonly LOG_DIR="${LOG_DIR:-/var/log/app}" # where logs live
readonly PATTERN='*.log # not a comment'
URL="http://example.com/#fragment"
echo "a # inside double quotes" # but this is one
echo foo#bar

usage() {
  cat <<EOF2
Usage: rotate [-n]   
  # this line is part of the heredoc
EOF2
}

# Rotate one file.
rotate_file() {
  local file="$1" # the file
  local stamp
  stamp="$(date +%s)"
  mv "$file" "$file.$stamp"
  gzip "$file.$stamp"
}

function prune {
  find "$LOG_DIR" -name '*.gz' -mtime +7 -delete
}

main() {
  # nested function disappears with the body
  inner() {
    echo inner
  }
  for f in "$LOG_DIR"/*.log; do
    rotate_file "$f"
  done
  prune
}

main "$@"
