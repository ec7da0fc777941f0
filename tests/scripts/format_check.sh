#!/usr/bin/env bash
# Every C++ file of the project is formatted as .clang-format says (docs/testing.md, "Style"):
# clang-format 14, Debian 12's, run over netlib, labs, tools, tests and cmake in --dry-run mode;
# a file it would change is reported with the first lines it would change. Other clang-format
# versions format some constructs differently, so another version is refused rather than trusted.
# Fix: clang-format-14 -i FILE (or every file: the command printed on failure).
#   bash tests/scripts/format_check.sh SOURCE_DIR BIN_DIR
set -euo pipefail
cd "$1"
tool=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$tool" ]; then
  echo "format_check: clang-format is not installed (./setup.sh deps --test installs it)" >&2
  exit 1
fi
if ! "$tool" --version | grep -q 'version 14\.'; then
  echo "format_check: $("$tool" --version) is not clang-format 14, the version the tree is formatted with" >&2
  exit 1
fi
mapfile -t files < <(find netlib labs tools tests cmake -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
                       -not -path '*/corpus/*' | sort)
if [ "${#files[@]}" -eq 0 ]; then
  echo "format_check: no C++ file found under $PWD (wrong source folder?)" >&2
  exit 1
fi
# One clang-format for every file; each change it would make is an error naming FILE:LINE:COL.
report=$("$tool" --dry-run -Werror "${files[@]}" 2>&1) || true
mapfile -t bad < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error: code should be clang-formatted' <<< "$report" | cut -d: -f1 | sort -u)
for f in "${bad[@]}"; do grep -m3 -A2 -F "$f:" <<< "$report" | head -6; done
echo "format_check: ${#files[@]} files, ${#bad[@]} not formatted as .clang-format says"
if [ "${#bad[@]}" -gt 0 ]; then
  echo "format them with: clang-format-14 -i ${bad[*]}" >&2
  exit 1
fi
