#!/usr/bin/env bash
# CTest fixture package.root: the minimal root file systems the release-artefact tests copy
# (tests/package/lib.sh: debootstrap --variant=minbase of Debian 12 bookworm and Ubuntu 22.04
# jammy, cached between runs). Usage: root.sh SOURCE_DIR
set -euo pipefail
# shellcheck source=lib.sh
. "$1/tests/package/lib.sh"
require_root_tools
for netlab_suite in bookworm jammy; do
  start=$SECONDS
  dir=$(cached_root)
  echo "minimal $netlab_suite root: $dir ($(du -sh "$dir" | cut -f1), ready in $((SECONDS - start)) s)"
  # It is bare: none of netlab's libraries or peers (Ubuntu's minbase has libssl3, for Kerberos;
  # bundle_test.sh removes it from its copy).
  for f in usr/lib/x86_64-linux-gnu/libfmt.so.9 usr/lib/x86_64-linux-gnu/libfmt.so.8 \
           usr/lib/x86_64-linux-gnu/libpcap.so.0.8 usr/lib/x86_64-linux-gnu/libglpk.so.40 usr/bin/curl usr/bin/python3; do
    if [ -e "$dir/$f" ]; then echo "FAIL: the minimal $netlab_suite root has /$f"; exit 1; fi
  done
  echo "it has none of libfmt, libpcap0.8, libglpk40, curl, python3"
done
