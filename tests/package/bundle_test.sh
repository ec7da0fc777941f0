#!/usr/bin/env bash
# The portable bundle netlab-VERSION-linux-x86_64.tar.gz (docs/instructor.md, "Install in one
# minute"):
#   1. its layout: every program in bin/, the captures, handouts, instructor guide, man pages and
#      autograder files in share/;
#   2. every program needs nothing but glibc: `objdump -T` shows no GLIBC_ symbol version above
#      2.35 (Ubuntu 22.04, Gradescope's image) and `readelf -d` no NEEDED library outside glibc's
#      own set, no run path; `ldd` resolves everything to glibc;
#   3. unpacked in a minimal Debian 12 root and a minimal Ubuntu 22.04 root (debootstrap
#      --variant=minbase: none of netlab's libraries, no curl, no python3; Ubuntu 22.04's glibc is
#      2.35, the ceiling), every program's --version and the whole netlab-tour run there under
#      chroot.
# Usage: bundle_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build=$2
# shellcheck source=lib.sh
. "$source_dir/tests/package/lib.sh"
require_root_tools objdump readelf ldd
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
tarball=$build/netlab-$version-linux-x86_64.tar.gz
[ -f "$tarball" ] || skip_or_fail "$tarball is missing (cmake --build $build --target package)"
work=$(mktemp -d "${TMPDIR:-/tmp}/netlab-bundle-test-XXXXXX")
cleanup() { unmount_roots; rm -rf "$work"; }
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mapfile -t programs < <(sed -n 's/^program //p' "$build/program_sources.txt" | sort)
echo "bundle: $tarball ($(du -h "$tarball" | cut -f1)), ${#programs[@]} programs"

# --- 1. layout -----------------------------------------------------------------------------
tar -xzf "$tarball" -C "$work"
top=$work/netlab-$version-linux-x86_64
[ -d "$top" ] || { echo "FAIL: the tarball has no top folder netlab-$version-linux-x86_64/"; exit 1; }
for p in "${programs[@]}"; do
  [ -x "$top/bin/$p" ] || fail "bin/$p is missing"
  [ -f "$top/share/man/man1/$p.1.gz" ] || fail "share/man/man1/$p.1.gz is missing"
done
for f in share/netlab/captures/net/loopback-http.pcapng share/netlab/captures/switch/four_hosts.pcapng \
         share/doc/netlab/README.md share/doc/netlab/instructor.md share/doc/netlab/labs/http.md \
         share/doc/netlab/copyright share/doc/netlab/third-party/libssl3.copyright \
         share/netlab/autograder/make_autograders.sh share/netlab/autograder/run_autograder share/netlab/autograder/setup.sh; do
  [ -e "$top/$f" ] || fail "$f is missing"
done
extra=$(find "$top/bin" -type f | wc -l)
[ "$extra" -eq "${#programs[@]}" ] || fail "bin/ has $extra files, not the ${#programs[@]} programs"

# --- 2. glibc only, at most GLIBC_2.35 --------------------------------------------------------
glibc_set='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|ld-linux-x86-64\.so\.2)$'
highest_all=0
printf '%-16s %-12s %s\n' program "max GLIBC_" "NEEDED"
for p in "${programs[@]}"; do
  f=$top/bin/$p
  highest=$(LC_ALL=C objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -n 1)
  needed=$(LC_ALL=C readelf -d "$f" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')
  printf '%-16s %-12s %s\n' "$p" "$highest" "$needed"
  if [ "$(printf '%s\n2.35\n' "$highest" | sort -V | tail -n 1)" != 2.35 ]; then
    fail "$p needs GLIBC_$highest (the floor is 2.35): $(LC_ALL=C objdump -T "$f" | grep -E "GLIBC_2\.(3[6-9]|[4-9][0-9])" | awk '{ print $NF }' | tr '\n' ' ')"
  fi
  for lib in $needed; do
    [[ $lib =~ $glibc_set ]] || fail "$p needs $lib, which is not part of glibc"
  done
  if LC_ALL=C readelf -d "$f" | grep -qE '\((RPATH|RUNPATH)\)'; then fail "$p has a run path"; fi
  if ldd "$f" | grep -q 'not found'; then fail "$p: ldd finds a library missing: $(ldd "$f" | grep 'not found')"; fi
  while read -r lib _; do
    [[ $(basename "$lib") =~ $glibc_set || $lib == linux-vdso.so.1 ]] || fail "$p: ldd resolves $lib (not glibc)"
  done < <(ldd "$f" | awk '{ print $1 }')
  highest_all=$(printf '%s\n%s\n' "$highest_all" "$highest" | sort -V | tail -n 1)
done
echo "highest glibc symbol version of any program: GLIBC_$highest_all"

# --- 3. minimal roots: --version of every program, then the whole tour --------------------------
# Debian 12 (glibc 2.36) and Ubuntu 22.04 (glibc 2.35, Gradescope's image: the ceiling itself).
for suite in bookworm jammy; do
  netlab_suite=$suite
  root=$work/root-$suite
  fresh_root "$root"
  mount_root "$root"
  glibc=$(in_root "$root" ldd --version | awk 'NR == 1 { print $NF }')
  echo "--- minimal $suite root (glibc $glibc)"
  for lib in libfmt.so.9 libfmt.so.8 libpcap.so.0.8 libglpk.so.40; do
    if [ -e "$root/usr/lib/x86_64-linux-gnu/$lib" ]; then fail "the minimal $suite root has $lib: the test would prove nothing"; fi
  done
  # minbase has apt, which needs libstdc++6, and Ubuntu's has libssl3 (for Kerberos): this copy of
  # the root loses them, so that a program linked against either fails here too (apt is not used
  # in this test).
  rm -f "$root"/usr/lib/x86_64-linux-gnu/libstdc++.so.6* "$root"/usr/lib/x86_64-linux-gnu/libssl.so.3 \
        "$root"/usr/lib/x86_64-linux-gnu/libcrypto.so.3
  tar -xzf "$tarball" -C "$root/opt"
  dir=/opt/netlab-$version-linux-x86_64
  for p in "${programs[@]}"; do
    out=$(in_root "$root" "$dir/bin/$p" --version 2>&1) || fail "$p --version in the minimal $suite root: $out"
    [ "$out" = "$p (netlab) $version" ] || fail "$p --version printed '$out' in the minimal $suite root"
  done
  echo "every program's --version runs in the minimal $suite root"
  if in_root "$root" "$dir/bin/netlab-tour" > "$work/tour-$suite.log" 2>&1; then
    tail -n 3 "$work/tour-$suite.log"
    grep -qE "tour finished: [0-9]+ steps, all ok" "$work/tour-$suite.log" || fail "the tour did not finish with every step ok ($suite)"
    grep -q "not installed: curl" "$work/tour-$suite.log" || fail "the tour did not say that curl is missing in the minimal $suite root"
  else
    cat "$work/tour-$suite.log"
    fail "netlab-tour failed in the minimal $suite root"
  fi
  unmount_roots
done
[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "the bundle runs on a bare Debian 12 and a bare Ubuntu 22.04 with glibc only"
