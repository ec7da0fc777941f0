#!/usr/bin/env bash
# One Gradescope autograder zip, run as Gradescope runs it, with no stand-ins (docs/instructor.md,
# "Gradescope"): in a fresh minimal Ubuntu 22.04 root (jammy, Gradescope's default image; made with
# debootstrap --variant=minbase, tests/package/lib.sh) laid out as /autograder/{source,submission,
# results}, the zip is unpacked into /autograder/source, its setup.sh runs there as root (it may
# install what submissions need from the mirror), run_autograder is copied to
# /autograder/run_autograder and runs, under chroot, for:
#   - a good sample submission (tests/package/submissions/KIND, or for the answer kinds the
#     answers a student works out with the seed the autograder showed them): full score;
#   - a broken one (one planted bug): the score and the message a student would see;
#   - for the answer kinds, first an empty submission (what tells a student their seed).
# Every results.json is checked against Gradescope's documented fields (validate_results.py).
# Each grading run's peak memory and time are measured (tests/package/lib.sh, measure) and must
# stay under 256 MiB and 60 s.
# Usage: autograder_test.sh SOURCE_DIR BUILD_DIR KIND    (KIND: http-server, delay-answers, ...)
set -euo pipefail
source_dir=$1
build=$2
kind=$3
# shellcheck source=lib.sh
. "$source_dir/tests/package/lib.sh"
require_root_tools unzip /usr/bin/time /usr/bin/python3
zip=$build/autograders/netlab-autograder-$kind.zip
[ -f "$zip" ] || skip_or_fail "$zip is missing (cmake --build $build --target autograders)"
work=$(mktemp -d "${TMPDIR:-/tmp}/netlab-autograder-test-XXXXXX")
cleanup() { unmount_roots; rm -rf "$work"; }
trap cleanup EXIT
measure_file=$work/measured
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
samples=$source_dir/tests/package/submissions/$kind
validate=$source_dir/tests/package/validate_results.py
echo "autograder: $zip ($(du -k "$zip" | cut -f1) KiB)"

# The zip's own programs, for working out answers as a student would (on this machine).
mkdir -p "$work/zip"
unzip -q "$zip" -d "$work/zip"
for f in setup.sh run_autograder autograder.conf netlab/bin/netlab-grade; do
  [ -e "$work/zip/$f" ] || fail "the zip has no $f at its root"
done
zbin=$work/zip/netlab/bin

# --- Gradescope's layout in a fresh minimal root -------------------------------------------------
# Ubuntu 22.04 (jammy), Gradescope's default image, as a bare minbase root (Gradescope's own has
# more installed, python3 among it: setup.sh here installs it from the Ubuntu archive);
# NETLAB_AUTOGRADER_SUITE=bookworm runs the same in Debian 12.
netlab_suite=${NETLAB_AUTOGRADER_SUITE:-jammy}
root=$work/root
echo "root: minimal $netlab_suite"
fresh_root "$root"
mount_root "$root"
mkdir -p "$root/autograder/source" "$root/autograder/submission" "$root/autograder/results"
unzip -q "$zip" -d "$root/autograder/source"
if ! measure setup in_root "$root" bash -c 'cd /autograder/source && bash ./setup.sh' > "$work/setup.log" 2>&1; then
  cat "$work/setup.log"
  echo "FAIL: setup.sh failed"
  exit 1
fi
sed 's/^/  setup.sh: /' "$work/setup.log" | tail -n 4
cp "$root/autograder/source/run_autograder" "$root/autograder/run_autograder"
chmod +x "$root/autograder/run_autograder"
# Gradescope's submission metadata (https://gradescope-autograders.readthedocs.io/en/latest/submission_metadata/).
metadata() {  # metadata USER_ID
  cat > "$root/autograder/submission_metadata.json" <<EOF
{"id": 987654, "created_at": "2026-12-02T10:00:00.000000-08:00",
 "assignment": {"due_date": "2026-12-09T23:59:00.000000-08:00", "group_size": null, "group_submission": false,
                "id": 31415, "course_id": 2718, "late_due_date": null, "release_date": "2026-12-01T00:00:00.000000-08:00",
                "title": "netlab $kind", "total_points": "100.0"},
 "submission_method": "upload",
 "users": [{"email": "student$1@example.edu", "id": $1, "name": "Student $1"}],
 "previous_submissions": []}
EOF
}
metadata 4242

submission() {  # submission: an empty /autograder/submission
  rm -rf "$root/autograder/submission"
  mkdir -p "$root/autograder/submission"
}
# grade NAME: one grading run, measured; leaves the facts of its results.json in $work/NAME.facts.
grade() {
  local name=$1
  rm -rf "$root/autograder/results"
  mkdir -p "$root/autograder/results"
  if ! measure "$name" in_root "$root" bash -c 'cd /autograder && /autograder/run_autograder' > "$work/$name.log" 2>&1; then
    fail "$name: run_autograder exited non-zero"
  fi
  if [ ! -s "$root/autograder/results/results.json" ]; then
    cat "$work/$name.log"
    fail "$name: no results.json"
    echo '{}' > "$work/$name.facts"
    return
  fi
  cp "$root/autograder/results/results.json" "$work/$name.results.json"
  "$validate" "$work/$name.results.json" || fail "$name: results.json breaks Gradescope's documented format"
  "$validate" "$work/$name.results.json" --facts > "$work/$name.facts" || true
  echo "--- $name: what the student sees (score $(fact "$name" 'f["score"]') of $(fact "$name" 'f["max_score"]')):"
  fact "$name" 'f["output"]' | sed 's/^/  | /'
}
fact() {  # fact NAME PYTHON-EXPRESSION over f, the facts
  /usr/bin/python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); v = eval(sys.argv[2]); print(v if not isinstance(v, (list, dict)) else json.dumps(v))' \
    "$work/$1.facts" "$2"
}
expect() {  # expect NAME PYTHON-CONDITION WHAT
  /usr/bin/python3 -c 'import json, sys; f = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$work/$1.facts" "$2" || { fail "$1: $3 (facts: $(cat "$work/$1.facts"))"; tail -n 30 "$work/$1.log"; }
}
full_score() { expect "$1" 'f["score"] == f["max_score"] and f["max_score"] > 0 and not f["failed"]' "full score expected"; }
plant() {  # plant FILE SED-EXPRESSION: a planted bug; the expression must change the file
  local before
  before=$(md5sum < "$1")
  sed -i "$2" "$1"
  [ "$(md5sum < "$1")" != "$before" ] || fail "the planted bug '$2' changed nothing in $1"
}
seed_shown() { fact "$1" 're.search(r"seed (\d+)", f["output"]).group(1) if (re := __import__("re")) else 0'; }

case "$kind" in
  *-server | *-client)
    role=${kind##*-}
    submission
    grade empty
    expect empty 'f["score"] == 0 and "no executable ./'"$role"'" in f["output"]' "an empty submission scores 0 and says why"
    submission
    cp "$samples/$role" "$root/autograder/submission/$role"
    grade good
    full_score good
    cp "$samples/$role" "$root/autograder/submission/$role"
    case "$kind" in
      http-server)
        expect good 'len(f["leaderboard"]) == 1 and f["leaderboard"][0]["name"] == "requests_per_s_vs_lab_http" and f["leaderboard"][0]["value"] > 0' \
          "a leaderboard entry: requests/s against lab-http"
        plant "$root/autograder/submission/server" '/out += "Date: /d'
        bug=date_header ;;
      ftp-server) plant "$root/autograder/submission/server" 's/221 Goodbye/200 Goodbye/'; bug=quit_221_closes ;;
      smtp-server) plant "$root/autograder/submission/server" 's/return self.reply("550 5.7.1 Relaying denied")/self.rcpts.append(user.lower()); return self.reply("250 2.1.5 Relaying")/'
                   bug=relay_denied ;;
      pop3-server) plant "$root/autograder/submission/server" '/def do_RSET/,/self.reply/s/self.deleted = set()/pass/'; bug=dele_then_rset ;;
      http-client) plant "$root/autograder/submission/client" 's/f.write(body)/f.write(body[:-1])/'; bug=body_identical ;;
      ftp-client) plant "$root/autograder/submission/client" 's/ftp.retrbinary("RETR " + name, f.write)/ftp.retrlines("RETR " + name, lambda line: f.write(line.encode() + b"\\n"))/'
                  bug=type_binary ;;
      smtp-client) plant "$root/autograder/submission/client" 's/smtp.sendmail(sender, \[rcpt\], message)/smtp.sendmail(sender, [rcpt], message); smtp.close()/'
                   bug=quit_221 ;;
      pop3-client) plant "$root/autograder/submission/client" 's/pop.quit()/pop.close()/'; bug=quit_ok ;;
    esac
    grade broken
    expect broken "'$bug' in f['failed'] and 0 < f['score'] < f['max_score'] and '$bug' in f['output']" \
      "the planted bug fails $bug, the others pass, and the student is told"
    ;;
  delay-answers | dc-answers)
    lab=${kind%-answers}
    quiz_file=answers.txt
    [ "$lab" = dc ] && quiz_file=quiz.txt
    submission
    grade empty
    seed=$(seed_shown empty)
    expect empty 'f["score"] == 0 and "Your quiz: seed" in f["output"] and "no '"$quiz_file"'" in f["output"]' \
      "an empty submission scores 0, shows the student's seed and quiz, and says what is missing"
    # Another student gets another seed; the same student the same one in every submission.
    metadata 4243
    grade other
    expect other 'str('"$seed"') not in f["output"]' "another student's seed differs"
    metadata 4242
    echo "the student's seed: $seed"
    # The student's answers, worked out with the lab for that seed.
    submission
    "$zbin/lab-$lab" quiz --seed "$seed" --count 5 --answers --json | /usr/bin/python3 -c '
import json, sys
doc = json.load(sys.stdin)
for p in doc["questions"]:
    for name, value in p["answer"].items():
        text = "unbounded" if value is None else (repr(value) if isinstance(value, float) else str(value))
        print("%d.%s: %s" % (p["number"], name, text))' > "$root/autograder/submission/$quiz_file"
    if [ "$lab" = dc ]; then
      "$zbin/lab-dc" ecmp --topology leaf-spine:4x2 --flows 50 --hash crc16 --traffic-seed "$seed" --paths --json |
        /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
flows = [{"flow": p["flow"], "hash": p["hops"][0]["hash"] if p["hops"] else None, "path": p["path"]} for p in d["paths"]]
links = [{"a": l["a"], "b": l["b"], "a_to_b": l["a_to_b"]["bytes"], "b_to_a": l["b_to_a"]["bytes"]} for l in d["links"]]
json.dump({"flows": [{k: v for k, v in f.items() if v is not None} for f in flows], "links": links}, sys.stdout)' \
        > "$root/autograder/submission/ecmp.json"
    fi
    grade good
    full_score good
    expect good 'len(f["hidden"]) > 0 and "shown now" in f["output"] and "points" not in f["output"]' \
      "the answers are hidden until the due date, and the summary does not give the score away"
    # Broken: the first value of problem 2 off by half; for dc also one flow's path changed.
    plant "$root/autograder/submission/$quiz_file" '0,/^2\.[a-z_]*: [0-9]/s/^\(2\.[a-z_]*\): \([0-9.e+-]*\)$/\1: -1/'
    [ "$lab" = dc ] && /usr/bin/python3 - "$root/autograder/submission/ecmp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["flows"][0]["path"]
p[2] = "spine1" if p[2] != "spine1" else "spine2"
json.dump(d, open(sys.argv[1], "w"))
PY
    grade broken
    # A problem with several values loses part of its point, one with a single value all of it.
    expect broken '0 < f["score"] < f["max_score"] and any(n.startswith("quiz: problem_2") for n in f["partial"] + f["failed"])' \
      "a wrong value costs its share of its problem's point"
    [ "$lab" = dc ] && expect broken '"ecmp: ecmp_paths" in f["partial"]' "one wrong path costs part of ecmp_paths"
    ;;
  questions-answers)
    submission
    "$zbin/netlab-grade" questions "$work/zip/captures/http/serve-session.pcapng" --key --select http --json |
      /usr/bin/python3 -c '
import json, sys
for q in json.load(sys.stdin)["questions"]:
    print("%s: %s" % (q["id"], q["answer"]))' > "$root/autograder/submission/answers.txt"
    grade good
    full_score good
    plant "$root/autograder/submission/answers.txt" '0,/^http\.status\.1: /s/^http\.status\.1: .*/http.status.1: 404/'
    grade broken
    expect broken 'f["failed"] == ["http.status.1"] and f["score"] == f["max_score"] - 1' "one wrong answer costs its point"
    ;;
  switch-answers)
    submission
    for capture in four_hosts moving_host aging_gap vlans edge_cases; do
      args=()
      [ -f "$work/zip/captures/switch/$capture.vlan.conf" ] && args=(--vlan-config "$work/zip/captures/switch/$capture.vlan.conf")
      "$zbin/lab-switch" replay "$work/zip/captures/switch/$capture.pcapng" "${args[@]}" --json \
        > "$root/autograder/submission/$capture.json"
    done
    grade good
    full_score good
    rm "$root/autograder/submission/moving_host.json"
    /usr/bin/python3 - "$root/autograder/submission/four_hosts.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
frame = next(f for f in d["frames"] if f["decision"] == "forward")
frame["decision"], frame["out_ports"] = "flood", [0, 1, 2, 3]  # a learned host flooded
json.dump(d, open(sys.argv[1], "w"))
PY
    grade broken
    expect broken '"four_hosts: forward_step5" in f["partial"] and "moving_host: decisions_complete" in f["failed"] and "no moving_host.json" in f["output"]' \
      "a wrong decision costs part of its step; a missing file fails its checks and says so"
    ;;
  *) echo "unknown autograder kind $kind"; exit 2 ;;
esac

# --- peak memory and time of every grading run --------------------------------------------------
echo "--- measured, load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores:"
printf '  %-8s %14s %16s %8s %7s  %s\n' run "cgroup peak KiB" "largest RSS KiB" "wall s" "CPU s" how
while read -r name peak rss wall cpu how; do
  printf '  %-8s %14s %16s %8s %7s  %s\n' "$name" "$peak" "$rss" "$wall" "$cpu" "$how"
done < "$measure_file"
while read -r name peak rss wall cpu _; do
  [ "$name" = setup ] && continue  # the image build, not a grading run
  for kib in $peak $rss; do
    [ "$kib" = - ] || [ "$kib" -lt $((256 * 1024)) ] || fail "$name: $kib KiB of memory is over 256 MiB"
  done
  awk -v w="$wall" 'BEGIN { exit !(w < 60) }' || fail "$name: $wall s is over 60 s"
done < "$measure_file"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "autograder $kind: graded as Gradescope would, within 256 MiB and 60 s per run"
