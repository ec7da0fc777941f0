#!/usr/bin/env bash
# make_autograders.sh [BUNDLE] [OUT] [LAB-ROLE...]: one Gradescope autograder zip per assignment
# kind, netlab-autograder-LAB-ROLE.zip in OUT, made from an unpacked release bundle.
#
#   BUNDLE  the unpacked netlab-VERSION-linux-x86_64 folder (default: the bundle this script is
#           in, share/netlab/autograder/ inside it)
#   OUT     where the zips go (default: ./autograders)
#   LAB-ROLE  which ones (default: all of them):
#     http-server ftp-server smtp-server pop3-server     the student wrote the server
#     http-client ftp-client smtp-client pop3-client     the student wrote the client
#     delay-answers    lab-delay quiz, a seed per student
#     dc-answers       lab-dc quiz and ECMP answers (netlab-grade dc), a seed per student
#     questions-answers  Wireshark-lab questions about a capture (netlab-grade questions)
#     switch-answers   forwarding decisions for the switch captures (netlab-grade switch)
#
# Each zip holds, at its root, setup.sh, run_autograder, autograder.conf (the assignment's
# settings: edit it, re-zip, upload) and netlab/ with only the programs and captures that grading
# uses, taken from the bundle: programs that need nothing but glibc, so Gradescope never builds
# netlab (docs/instructor.md, "Gradescope"). `cmake --build build/release --target autograders`
# runs this on the bundle it builds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bundle=$(cd "${1:-$here/../../..}" && pwd)
out=${2:-autograders}
shift $(( $# > 2 ? 2 : $# ))
all=(http-server ftp-server smtp-server pop3-server http-client ftp-client smtp-client pop3-client
     delay-answers dc-answers questions-answers switch-answers)
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=("${all[@]}")
command -v zip >/dev/null || { echo "make_autograders.sh: zip is not installed (apt-get install zip)" >&2; exit 1; }
templates=$bundle/share/netlab/autograder
[ -x "$bundle/bin/netlab-grade" ] && [ -f "$templates/run_autograder" ] ||
  { echo "make_autograders.sh: $bundle is not an unpacked netlab release bundle (no bin/netlab-grade)" >&2; exit 1; }
# The zips must run on Gradescope's image, which has none of netlab's libraries: refuse programs
# that need more than glibc (a Release build rather than the bundle's portable one).
for program in "$bundle"/bin/*; do
  if LC_ALL=C readelf -d "$program" 2>/dev/null | grep -q 'NEEDED' &&
     LC_ALL=C readelf -d "$program" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' |
       grep -vqE '^(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\.so'; then
    echo "make_autograders.sh: $program needs libraries besides glibc: use the release bundle's programs" >&2
    exit 1
  fi
done
version=$("$bundle/bin/netlab-grade" --version | awk '{ print $NF }')
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

for kind in "${kinds[@]}"; do
  lab=${kind%-*}
  role=${kind##*-}
  programs=(netlab-grade)
  captures=()
  packages=python3
  visibility=visible
  settings=""
  case "$kind" in
    http-server)
      programs+=(lab-http)  # the reference the leaderboard's requests/s are measured against
      settings='# How long each reply may take (netlab-grade --timeout).
REPLY_TIMEOUT=3s
# Seconds per round of the requests/s measurement against lab-http (the leaderboard; 0: off).
THROUGHPUT_SECONDS=1' ;;
    ftp-server)
      settings='# How long each reply may take (netlab-grade --timeout).
REPLY_TIMEOUT=3s
# How much longer the refusal of a wrong password may take: servers delay it to slow down guessing
# (pyftpdlib 3 s, vsftpd 1 s), which costs no point (netlab-grade ftp --login-delay).
LOGIN_DELAY=5s' ;;
    smtp-server | pop3-server)
      settings='# How long each reply may take (netlab-grade --timeout).
REPLY_TIMEOUT=3s' ;;
    http-client | ftp-client | smtp-client | pop3-client)
      programs+=("lab-$lab")  # the reference server the client talks to
      settings='# Seconds the client may run per grading (then it is killed).
CLIENT_DEADLINE=20' ;;
    delay-answers)
      programs+=(lab-delay); packages=""; visibility=after_due_date
      settings='# Problems in each quiz.
QUIZ_COUNT=5' ;;
    dc-answers)
      programs+=(lab-dc); packages=""; visibility=after_due_date
      settings='# Questions in each quiz, and the ECMP exercise (the flows come from the student'"'"'s seed).
QUIZ_COUNT=5
DC_TOPOLOGY=leaf-spine:4x2
DC_FLOWS=50
DC_HASH=crc16
DC_GRADE=hash,path,loads' ;;
    questions-answers)
      packages=""; visibility=after_due_date
      captures=(captures/http/serve-session.pcapng)
      settings='# The capture the questions are about (under netlab/../ in this zip) and which questions.
QUESTIONS_CAPTURE=captures/http/serve-session.pcapng
QUESTIONS_SELECT=http' ;;
    switch-answers)
      programs+=(lab-switch); packages=""
      captures=(captures/switch/four_hosts.pcapng captures/switch/moving_host.pcapng captures/switch/aging_gap.pcapng
                captures/switch/vlans.pcapng captures/switch/vlans.vlan.conf captures/switch/edge_cases.pcapng)
      settings='# The captures whose decisions the students submit, as CAPTURE.json each.
SWITCH_CAPTURES="captures/switch/four_hosts.pcapng captures/switch/moving_host.pcapng captures/switch/aging_gap.pcapng captures/switch/vlans.pcapng captures/switch/edge_cases.pcapng"' ;;
    *) echo "make_autograders.sh: unknown autograder '$kind' (one of: ${all[*]})" >&2; exit 2 ;;
  esac
  dir=$stage/$kind
  mkdir -p "$dir/netlab/bin"
  cp "$templates/setup.sh" "$templates/run_autograder" "$dir/"
  for p in "${programs[@]}"; do cp "$bundle/bin/$p" "$dir/netlab/bin/"; done
  for c in "${captures[@]}"; do
    mkdir -p "$dir/$(dirname "$c")"
    cp "$bundle/share/netlab/$c" "$dir/$c"
  done
  cat > "$dir/autograder.conf" <<EOF
# netlab $version Gradescope autograder: $lab, role $role (made by make_autograders.sh).
# setup.sh and run_autograder read this file; edit it, zip the folder's contents again and upload.
LAB=$lab
ROLE=$role
# Packages the submissions need (installed by setup.sh when the image lacks them; netlab needs
# none): python3 for Python submissions; add e.g. "gcc make" for C (a Makefile is run by make).
SUBMISSION_PACKAGES="$packages"
# When students see the tests: visible, after_due_date, after_published or hidden.
VISIBILITY=$visibility
# Some checks at another time, e.g. "pipelining_in_order=after_due_date path_traversal_refused=hidden".
CHECK_VISIBILITY=""
# A course secret mixed into each student's seed (netlab-grade variant --salt).
SEED_SALT=""
# The points of a submission nothing can be graded in (no program, no answers file).
POINTS=1
$settings
EOF
  rm -f "$out/netlab-autograder-$kind.zip"
  (cd "$dir" && zip -q -r -X "$out/netlab-autograder-$kind.zip" .)
  echo "$out/netlab-autograder-$kind.zip ($(du -k "$out/netlab-autograder-$kind.zip" | cut -f1) KiB: ${programs[*]}${captures[*]:+, ${captures[*]}})"
done
