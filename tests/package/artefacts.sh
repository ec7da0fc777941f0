#!/usr/bin/env bash
# CTest fixture package.artefacts: the release artefacts, built by the documented commands
# (docs/instructor.md): `cmake --build BUILD --target package` (the portable bundle and the Debian
# package) and `cmake --build BUILD --target autograders` (one zip per Gradescope assignment kind).
# Usage: artefacts.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
source_dir=$1
build=$2
# shellcheck source=lib.sh
. "$source_dir/tests/package/lib.sh"
for t in help2man zip dpkg-shlibdeps; do
  command -v "$t" >/dev/null || skip_or_fail "$t is not installed (./setup.sh deps --package installs it)"
done
export CCACHE_BASEDIR=$source_dir CCACHE_NOHASHDIR=1
start=$SECONDS
cmake --build "$build" --target package
cmake --build "$build" --target autograders
echo "package and autograders built in $((SECONDS - start)) s"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
ls -l "$build/netlab-$version-linux-x86_64.tar.gz" "$build/netlab_${version}_amd64.deb" "$build"/autograders/*.zip
