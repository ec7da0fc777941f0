#!/usr/bin/env bash
# netlab Gradescope autograder: set-up. Gradescope runs this once, as root, when it builds the
# autograder image (Ubuntu 22.04 by default), from /autograder/source where the zip is unpacked.
#
# netlab itself needs nothing here: netlab/bin holds programs that need only the C library
# (glibc 2.35 or later; docs/instructor.md). What this installs is what the students'
# submissions need to build and run, SUBMISSION_PACKAGES in autograder.conf (python3 by default for
# the server and client assignments; add e.g. gcc make for C), and only the packages the image
# does not have already.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=/dev/null
. "$here/autograder.conf"

missing=()
for p in ${SUBMISSION_PACKAGES:-}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing what submissions need: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "submissions need no package this image lacks (SUBMISSION_PACKAGES: ${SUBMISSION_PACKAGES:-none})"
fi

# The programs run here: fail the image build now rather than every submission later.
chmod +x "$here/run_autograder" "$here"/netlab/bin/*
for program in "$here"/netlab/bin/*; do
  "$program" --version
done
