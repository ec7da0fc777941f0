#!/usr/bin/env bash
# manpage.sh PROGRAM OUT.1: the manual page of a netlab program, made by help2man from the
# program's own --help and --version (docs/conventions.md: every program and subcommand has both).
# The page has the program's options, a COMMANDS section with each subcommand's --help, and an
# EXAMPLES section with the examples the help ends with (kept as written, not reflowed). Run at
# install time (cmake/NetlabPackaging.cmake), so the pages describe the binaries being packaged.
set -euo pipefail
program=$1
out=$2
name=$(basename "$program")
command -v help2man >/dev/null || { echo "manpage.sh: help2man is not installed (./setup.sh deps --package)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
help=$("$program" --help)
description=$(printf '%s\n' "$help" | sed -n 1p)
# roff-safe preformatted text: backslashes escaped, lines starting with . or ' protected.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
# help2man reads --help through this wrapper, which leaves out the trailing example (it would be
# reflowed as a paragraph; EXAMPLES below keeps its lines).
cat > "$work/$name" <<WRAP
#!/bin/sh
if [ "\$1" = --help ]; then "$program" --help | awk '/^Example:/ { exit } { print }'; else exec "$program" "\$@"; fi
WRAP
chmod +x "$work/$name"
{
  echo "[NAME]"
  echo "$name \\- $description"
  subcommands=$(printf '%s\n' "$help" | awk '/^Subcommands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
  if [ -n "$subcommands" ]; then
    echo "[COMMANDS]"
    for sub in $subcommands; do
      echo ".SS $sub"
      "$program" "$sub" --help | sed -n 1p | roff
      echo ".PP"
      echo ".nf"
      "$program" "$sub" --help | tail -n +2 | roff
      echo ".fi"
    done
  fi
  echo "[EXAMPLES]"
  echo ".nf"
  printf '%s\n' "$help" | awk 'on { print } /^Example:/ { on = 1 }' | sed 's/^  //' | roff
  echo ".fi"
  echo "[SEE ALSO]"
  echo "netlab-tour(1). The handouts and the instructor guide are in /usr/share/doc/netlab (share/doc/netlab in"
  echo "the release bundle), the recorded captures in /usr/share/netlab/captures."
} > "$work/include"
help2man --no-info --no-discard-stderr --section 1 --source netlab --manual netlab \
  --include "$work/include" --output "$out" "$work/$name"
