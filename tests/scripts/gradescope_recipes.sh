#!/usr/bin/env bash
# The Gradescope autograder of docs/instructor/gradescope, run as Gradescope runs it, for every
# recipe (LAB http ftp smtp pop3 x ROLE server client):
#   1. setup.sh in a temporary /autograder tree (AUTOGRADER_ROOT), with apt-get and cmake replaced
#      by stand-ins: apt-get does nothing, `cmake --build ... --target A B` copies exactly the
#      programs A B from the build into the tree's build/release/bin. So grading below sees only
#      what setup.sh builds: a recipe whose program setup.sh forgot fails here.
#   2. run_autograder for a submission that wraps the reference program (lab-http serve, lab-ftp
#      get, ...) in the recipe's contract: full score, score == max_score;
#   3. run_autograder for a broken submission (a server that exits at once, a client that saves
#      nothing): a results.json with a lower score and a reason.
# Usage (CTest passes them): gradescope_recipes.sh SOURCE_DIR BIN_DIR
set -euo pipefail
source_dir=$1
bin_dir=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/netlab-gradescope-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# --- 1. setup.sh with stand-ins for apt-get and cmake ---------------------------------------
root=$work/autograder
mkdir -p "$root/source/netlab" "$work/stubs"
cat > "$work/stubs/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$STUB_LOG"
EOF
cat > "$work/stubs/cmake" <<'EOF'
#!/bin/sh
# Stand-in for cmake: configure does nothing; --build copies the named targets from the real build.
echo "cmake $*" >> "$STUB_LOG"
[ "$1" = "--build" ] || exit 0
dir=$2; shift 2
[ "$1" = "--target" ] || { echo "cmake stand-in: expected --target after the build folder" >&2; exit 2; }
shift
mkdir -p "$dir/bin"
for t in "$@"; do cp "$REAL_BIN/$t" "$dir/bin/$t" || exit 1; done
EOF
chmod +x "$work/stubs/apt-get" "$work/stubs/cmake"
if ! STUB_LOG=$work/stub.log REAL_BIN=$bin_dir AUTOGRADER_ROOT=$root PATH="$work/stubs:$PATH" \
    bash "$source_dir/docs/instructor/gradescope/setup.sh" > "$work/setup.out" 2>&1; then
  cat "$work/setup.out"
  echo "FAIL: setup.sh"
  exit 1
fi
echo "setup.sh built: $(ls "$root/source/netlab/build/release/bin" | tr '\n' ' ')"
grep -q "^apt-get install" "$work/stub.log" || fail "setup.sh installed no packages"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Runs run_autograder for LAB ROLE with the submission in $root/submission; prints "score max".
autograde() {
  rm -rf "$root/results"
  AUTOGRADER_ROOT=$root NETLAB_LAB=$1 NETLAB_ROLE=$2 GRADE_PORT=$(free_port) \
    bash "$source_dir/docs/instructor/gradescope/run_autograder" > "$work/run.out" 2>&1 ||
    { cat "$work/run.out"; echo "run_autograder exited non-zero"; }
  python3 - "$root/results/results.json" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    print("none", "none", "-", "no results.json: %s" % e, sep="\t")
    sys.exit(0)
total = d.get("max_score", sum(t.get("max_score", 0) for t in d.get("tests", [])))
lost = ",".join(t.get("name", "?") for t in d.get("tests", []) if t.get("score") != t.get("max_score")) or "-"
print(d.get("score"), total, lost, d.get("output", "")[:200].replace("\n", " ").replace("\t", " ") or "-", sep="\t")
PY
}

submission() {  # submission FILE CONTENT: a fresh submission with one executable script
  rm -rf "$root/submission"
  mkdir -p "$root/submission"
  printf '%s\n' "$2" > "$root/submission/$1"
  chmod +x "$root/submission/$1"
}

check_full() {  # LAB ROLE
  IFS=$'\t' read -r score max missed output < <(autograde "$1" "$2")
  if [ "$score" != "none" ] && [ "$score" = "$max" ] && [ "$max" != "0" ]; then
    echo "ok   $1 $2: $score/$max"
  else
    fail "$1 $2: $score/$max (lost: $missed) $output"
    cat "$work/run.out"
    cat "$root/results/server.log" 2>/dev/null || true
  fi
}

check_low() {  # LAB ROLE WHY: a broken submission scores below the maximum and says why
  IFS=$'\t' read -r score max missed output < <(autograde "$1" "$2")
  if [ "$score" != "none" ] && { [ "$score" != "$max" ] || [ "$score" = "0" ]; } && [ "$output$missed" != "--" ]; then
    echo "ok   $1 $2, broken ($3): $score/$max (lost: $missed; said: $output)"
  else
    fail "$1 $2, broken ($3): $score/$max"
  fi
}

# --- 2. reference submissions: full score ----------------------------------------------------
b=$bin_dir
# Servers: ./server ... --port PORT -> the lab server on 127.0.0.1:PORT.
submission server "#!/bin/sh
# --root DIR --port PORT
exec '$b/lab-http' serve --root \"\$2\" --listen \"127.0.0.1:\$4\""
check_full http server
submission server "#!/bin/sh
# --root DIR --users FILE --port PORT
exec '$b/lab-ftp' serve --root \"\$2\" --users \"\$4\" --listen \"127.0.0.1:\$6\""
check_full ftp server
submission server "#!/bin/sh
# --maildir DIR --domain D --users FILE --port PORT
exec '$b/lab-smtp' serve --maildir \"\$2\" --domain \"\$4\" --users \"\$6\" --listen \"127.0.0.1:\$8\""
check_full smtp server
submission server "#!/bin/sh
# --maildir DIR --users FILE --port PORT
exec '$b/lab-pop3' serve --maildir \"\$2\" --users \"\$4\" --listen \"127.0.0.1:\$6\""
check_full pop3 server
# Clients: the lab clients in each contract.
submission client "#!/bin/sh
# URL OUTFILE
exec '$b/lab-http' get \"\$1\" -o \"\$2\""
check_full http client
submission client "#!/bin/sh
# HOST PORT USER PASS FILE OUTFILE
exec '$b/lab-ftp' get \"ftp://\$3:\$4@\$1:\$2/\$5\" -o \"\$6\""
check_full ftp client
submission client "#!/bin/sh
# HOST PORT FROM RCPT MESSAGEFILE
exec '$b/lab-smtp' send --server \"\$1:\$2\" --from \"\$3\" --to \"\$4\" --raw < \"\$5\""
check_full smtp client
submission client "#!/bin/sh
# HOST PORT USER PASS OUTDIR
exec '$b/lab-pop3' fetch --server \"\$1:\$2\" --user \"\$3\" --password \"\$4\" --out \"\$5\""
check_full pop3 client

# --- 3. broken submissions: less than full score, with the reason ----------------------------
submission server "#!/bin/sh
echo 'segmentation fault (pretend)' >&2
exit 1"
for lab in http ftp smtp pop3; do check_low "$lab" server "the server exits at once"; done
submission client "#!/bin/sh
exit 0"
for lab in http ftp smtp pop3; do check_low "$lab" client "the client does nothing"; done
rm -rf "$root/submission"
check_low http server "no submission"

[ "$failures" -eq 0 ] || { echo "$failures recipe(s) failed"; exit 1; }
echo "every recipe graded as expected"
