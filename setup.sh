#!/usr/bin/env bash
# netlab set-up: the one entry point behind the README's two commands.
#
#   ./setup.sh tour   install what is missing, build the programs (Release), run netlab-tour
#   ./setup.sh test   install what is missing, build (Release), run every test with ctest
#   ./setup.sh bench  install what is missing, run tests/bench/run (netlab against nginx, vsftpd,
#                     aiosmtpd, smtp-sink and a bare libpcap loop; extra arguments go to it)
#   ./setup.sh deps   only install what is missing (add --test for the test peers, --package for
#                     what the release artefacts and their tests need)
#   ./setup.sh package  install what is missing, build the release bundle, the Debian package and
#                     the Gradescope autograder zips, and test them (ctest --preset package: root,
#                     the Debian mirror, archive.ubuntu.com; docs/testing.md, "Release artefacts")
#
# Packages come from Debian 12. As root, missing ones are installed with apt-get (daemons that
# packages would start, such as nginx, vsftpd or postfix, are kept from starting; the tests start
# their own instances on free loopback ports). Otherwise the exact
# apt-get line is printed and the script exits 1.
set -euo pipefail
cd "$(dirname "$0")"

# What building needs.
build_packages=(g++ cmake ninja-build pkg-config libssl-dev libpcap-dev libfmt-dev libcli11-dev
                nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev openssl ccache libglpk-dev)
# Boost: 1.81 unless a Boost 1.74 development package is already installed (both work).
if dpkg-query -W -f='${Status}' libboost1.74-dev 2>/dev/null | grep -q 'install ok installed'; then
  build_packages+=(libboost1.74-dev)
else
  build_packages+=(libboost1.81-dev)
fi
# Real peers the tour uses, and the tools the handouts (docs/labs/*.md) have students type: nc
# (netcat-openbsd: http.md, mail.md) and wget (ftp.md).
tour_packages=(curl python3 netcat-openbsd wget)
# Peers the benchmarks measure against (tests/bench/run).
bench_packages=(wrk nginx-light h2o vsftpd postfix python3-aiosmtpd curl iperf3 time tshark valgrind)
# Node's HTTP parser: the request-parsing peer bench_request_parsers links (issue 30).
bench_packages+=(libhttp-parser-dev)
# Real peers and tools the tests use.
test_packages=(curl wget python3 python3-pyftpdlib python3-aiosmtpd swaks tshark iproute2 iputils-ping
               clang libclang-rt-14-dev clang-format procps chromium nginx-light vsftpd postfix
               s-nail getmail6 mpop fetchmail dovecot-pop3d netcat-openbsd libnet-ssleay-perl lftp)
# The DNS, DHCP and NAT capture recipes' daemons and clients (tests/integration/capture/recipes_test.cpp).
test_packages+=(bind9 bind9-dnsutils unbound dnsmasq-base busybox nftables ethtool)
# The IP/ICMP capture recipe (captures/ip/record-ip.sh, run by tests/integration/capture/packet_recipes_test.cpp).
test_packages+=(traceroute iputils-tracepath)
# What the release artefacts and their tests need (cmake --build build/release --target package
# autograders; ctest --preset package): the static archives of the portable link
# (cmake/NetlabPortable.cmake), the Debian packaging tools, debootstrap (and curl, for Ubuntu's
# keyring) for the minimal roots the tests run in, and the tools the tests look with.
package_packages=(libltdl-dev zlib1g-dev libgmp-dev libsuitesparse-dev libdbus-1-dev help2man dpkg-dev lintian curl
                  debootstrap zip unzip file man-db time binutils python3)

missing_packages() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

install_packages() {
  local missing
  mapfile -t missing < <(missing_packages "$@" | sort -u)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "netlab needs these Debian packages; install them as root, then run this again:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # tshark asks whether non-root users may capture; answer no without a prompt.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
  # Postfix is installed only for smtp-sink and smtp-source: no mail system is configured.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  # Keep packages from starting daemons on the user's ports (80, 21, 25, 110).
  local policy=/usr/sbin/policy-rc.d created_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && created_policy=1
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  [ "$created_policy" -eq 1 ] && rm -f "$policy"
  return 0
}

# ccache (found by CMakeLists.txt) keys on paths relative to the checkout, so clones share objects.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1

# build [TARGET]: configure (once) and build TARGET, or everything.
build() {
  cmake --preset release >/dev/null
  cmake --build --preset release ${1:+--target "$1"}
}

case "${1:-}" in
  tour)
    install_packages "${build_packages[@]}" "${tour_packages[@]}"
    build netlab_programs  # the labs and tools the tour runs, not the test suite
    exec ./build/release/bin/netlab-tour
    ;;
  test)
    install_packages "${build_packages[@]}" "${tour_packages[@]}" "${test_packages[@]}"
    build
    exec ctest --preset release
    ;;
  bench)
    install_packages "${build_packages[@]}" "${tour_packages[@]}" "${bench_packages[@]}"
    shift
    exec /usr/bin/python3 tests/bench/run "$@"
    ;;
  package)
    install_packages "${build_packages[@]}" "${tour_packages[@]}" "${package_packages[@]}"
    cmake --preset release >/dev/null
    exec ctest --preset package
    ;;
  deps)
    if [ "${2:-}" = "--test" ]; then
      install_packages "${build_packages[@]}" "${tour_packages[@]}" "${test_packages[@]}"
    elif [ "${2:-}" = "--package" ]; then
      install_packages "${build_packages[@]}" "${tour_packages[@]}" "${package_packages[@]}"
    else
      install_packages "${build_packages[@]}" "${tour_packages[@]}"
    fi
    ;;
  *)
    echo "usage: ./setup.sh tour | test | bench [ARGS] | package | deps [--test | --package]" >&2
    exit 2
    ;;
esac
