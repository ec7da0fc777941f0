#!/usr/bin/env bash
# The Debian package netlab_VERSION_amd64.deb (docs/instructor.md, "Install in one minute"):
#   1. its control data: Depends as dpkg-shlibdeps computed it, programs in /usr/bin, the
#      handouts, instructor guide, copyright and changelog in /usr/share/doc/netlab, the captures
#      in /usr/share/netlab/captures, a man page per program;
#   2. lintian reports no error (its warnings are printed; docs/instructor.md says which remain
#      and why);
#   3. in a fresh minimal Debian 12 root: `apt-get install ./netlab_*.deb` (apt fetches the
#      dependencies from the mirror), the whole netlab-tour, `man -w lab-http`, then `apt-get
#      purge netlab` leaves no file of the package behind.
# Usage: deb_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build=$2
# shellcheck source=lib.sh
. "$source_dir/tests/package/lib.sh"
require_root_tools dpkg-deb lintian
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
deb=$build/netlab_${version}_amd64.deb
[ -f "$deb" ] || skip_or_fail "$deb is missing (cmake --build $build --target package)"
work=$(mktemp -d "${TMPDIR:-/tmp}/netlab-deb-test-XXXXXX")
cleanup() { unmount_roots; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mapfile -t programs < <(sed -n 's/^program //p' "$build/program_sources.txt" | sort)

# --- 1. control data and contents --------------------------------------------------------------
echo "package: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb -f "$deb" Package Version Architecture Depends Section Maintainer
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libssl3 libpcap0.8 libglpk40 libfmt9 libstdc++6; do
  [[ $depends == *"$lib "* || $depends == *"$lib," || $depends == *"$lib" ]] || fail "Depends names no $lib: $depends"
done
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' > "$work/contents"
for p in "${programs[@]}"; do
  grep -qx "/usr/bin/$p" "$work/contents" || fail "/usr/bin/$p is missing"
  grep -qx "/usr/share/man/man1/$p.1.gz" "$work/contents" || fail "/usr/share/man/man1/$p.1.gz is missing"
done
for f in /usr/share/doc/netlab/copyright /usr/share/doc/netlab/changelog.gz /usr/share/doc/netlab/README.md \
         /usr/share/doc/netlab/instructor.md /usr/share/doc/netlab/labs/http.md /usr/share/doc/netlab/labs/datacenter.md \
         /usr/share/netlab/captures/net/loopback-http.pcapng /usr/share/netlab/captures/http/serve-session.pcapng; do
  grep -qx "$f" "$work/contents" || fail "$f is missing"
done

# --- 2. lintian ------------------------------------------------------------------------------------
lintian --no-tag-display-limit "$deb" > "$work/lintian.txt" 2>&1 || true
errors=$(grep -c '^E: ' "$work/lintian.txt" || true)
echo "lintian: $errors error(s), $(grep -c '^W: ' "$work/lintian.txt" || true) warning(s), $(grep -c '^I: ' "$work/lintian.txt" || true) info"
sed -n '/^[EW]: /p' "$work/lintian.txt" | sed 's/^/  /' | sort | uniq -c | sort -rn | head -n 40
[ "$errors" -eq 0 ] || fail "lintian reports $errors error(s)"

# --- 3. install, use, purge in a minimal Debian 12 root ------------------------------------------
root=$work/root
fresh_root "$root"
mount_root "$root"
cp "$deb" "$root/tmp/"
in_root "$root" find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /var/cache -o -path /var/lib/apt/lists \) \
  -prune -o -print 2> /dev/null | sort > "$work/before"
start=$SECONDS
in_root "$root" apt-get update -qq || fail "apt-get update in the minimal root"
if ! in_root "$root" apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" man-db > "$work/install.log" 2>&1; then
  tail -n 30 "$work/install.log"
  fail "apt-get install ./$(basename "$deb") failed"
fi
echo "apt-get install ./$(basename "$deb") man-db: $((SECONDS - start)) s"
in_root "$root" dpkg -L netlab | sort > "$work/files"
if in_root "$root" netlab-tour > "$work/tour.log" 2>&1; then
  tail -n 3 "$work/tour.log"
  grep -qE "tour finished: [0-9]+ steps, all ok" "$work/tour.log" || fail "the tour did not finish with every step ok"
else
  cat "$work/tour.log"
  fail "netlab-tour failed after apt-get install"
fi
manpage=$(in_root "$root" man -w lab-http 2>&1) || true
echo "man -w lab-http: $manpage"
[ "$manpage" = /usr/share/man/man1/lab-http.1.gz ] || fail "man -w lab-http gave '$manpage'"
in_root "$root" man -P cat lab-http > "$work/man.txt" 2> "$work/man.err" || fail "man lab-http: $(cat "$work/man.err")"
grep -q "lab-http - " "$work/man.txt" || fail "man lab-http shows no NAME line"
in_root "$root" apt-get purge -y -qq netlab > /dev/null || fail "apt-get purge netlab"
left=0
while read -r f; do
  [ -n "$f" ] || continue
  if [ -e "$root$f" ] && ! grep -qx "$f" "$work/before" && ! [ -d "$root$f" -a -n "$(ls -A "$root$f" 2> /dev/null)" ]; then
    fail "left behind after purge: $f"
    left=$((left + 1))
  fi
done < "$work/files"
echo "apt-get purge netlab: $left of $(wc -l < "$work/files") packaged paths left behind"
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "the Debian package installs, runs, documents itself and purges cleanly"
