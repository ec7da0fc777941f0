#!/usr/bin/env bash
# Gradescope autograder set-up for a netlab lab (runs once, as root, when the autograder image is
# built). The autograder zip holds this file, run_autograder, and the netlab source tree as
# netlab/ (e.g. `git archive --prefix=netlab/ HEAD | tar -x`). Gradescope unpacks the zip into
# /autograder/source.
#
# It installs netlab's build dependencies and builds only what grading needs: netlab-grade and
# the reference lab binaries every recipe of run_autograder uses (a client is graded against
# lab-http, lab-ftp, lab-smtp or lab-pop3 serve, found next to netlab-grade; lab-switch grades
# switch decisions), in Release, into /autograder/source/netlab/build/release/bin.
# AUTOGRADER_ROOT replaces /autograder (netlab's test runs this script in a temporary folder).
set -euo pipefail
root=${AUTOGRADER_ROOT:-/autograder}
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config libssl-dev libpcap-dev libfmt-dev libcli11-dev nlohmann-json3-dev \
  libboost-dev libgtest-dev libgmock-dev python3 make
cd "$root/source/netlab"
cmake --preset release -DNETLAB_BUILD_TESTS=OFF
cmake --build build/release --target netlab-grade lab-http lab-ftp lab-smtp lab-pop3 lab-switch
