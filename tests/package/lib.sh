# Shared by the release-artefact tests (tests/package/*.sh, CTest label `package`): minimal root
# file systems made with debootstrap and cached between runs, chroot mounts that are always undone,
# and the skip/fail rule of the integration tests (docs/testing.md, "Release artefacts").
#
# Two roots, both `debootstrap --variant=minbase` (essential packages and apt only, none of
# netlab's build or run dependencies: no libssl3, libfmt, libpcap, libglpk, curl or python3):
#   bookworm  Debian 12, from the mirror apt uses here (glibc 2.36);
#   jammy     Ubuntu 22.04, Gradescope's default autograder image, from archive.ubuntu.com (glibc
#             2.35, the bundle's ceiling), checked with the Ubuntu archive keyring taken from
#             ubuntu-keyring_2021.03.26_all.deb, whose SHA-256 is pinned below.
# A root is cached as a folder under $NETLAB_ROOT_CACHE (default $XDG_CACHE_HOME/netlab/roots,
# else /var/cache/netlab/roots), keyed by everything that decides its content (suite, variant,
# mirror, extra packages, debootstrap's version); each test works on a fresh copy. Downloaded
# packages are kept in $NETLAB_ROOT_CACHE/apt-archives-SUITE and copied into every copy's
# /var/cache/apt/archives, so a package that a test installs is downloaded once.

netlab_suite=${NETLAB_ROOT_SUITE:-bookworm}
netlab_cache=${NETLAB_ROOT_CACHE:-${XDG_CACHE_HOME:-/var/cache}/netlab/roots}
netlab_ubuntu_mirror=${NETLAB_UBUNTU_MIRROR:-http://archive.ubuntu.com/ubuntu}
netlab_ubuntu_keyring_deb=pool/main/u/ubuntu-keyring/ubuntu-keyring_2021.03.26_all.deb
netlab_ubuntu_keyring_sha256=0d0e7ed6b112f5d03eabf3c7eb01ebdacf9c57714b279e90495cfc58c8c4520f

# skip_or_fail MESSAGE: a test that cannot run here is skipped (exit 77, CTest's SKIP_RETURN_CODE)
# with the reason; under CI=true it fails instead, as a missing peer does in the integration tests.
skip_or_fail() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL (CI=true, so this is not skipped): $*" >&2
    exit 1
  fi
  echo "SKIPPED: $*" >&2
  exit 77
}

require_root_tools() {
  [ "$(id -u)" -eq 0 ] || skip_or_fail "needs root (debootstrap, chroot, mount)"
  local t
  for t in debootstrap chroot mount umount "$@"; do
    command -v "$t" >/dev/null || skip_or_fail "$t is not installed (./setup.sh deps --package installs it)"
  done
}

# The Debian mirror apt uses on this machine for bookworm (deb822 URIs: or a one-line `deb URL
# bookworm ...`), else deb.debian.org.
debian_mirror() {
  local netlab_suite=bookworm
  local f line uri="" suites=""
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    case "$f" in
      *.sources)
        while IFS= read -r line; do
          case "$line" in
            URIs:*) uri=${line#URIs:}; uri=${uri# } ;;
            Suites:*) suites=${line#Suites:} ;;
            "") if [[ " $suites " == *" $netlab_suite "* && $uri == http* ]]; then echo "${uri%% *}"; return; fi
                uri=""; suites="" ;;
          esac
        done < <(cat "$f"; echo)
        ;;
      *)
        line=$(grep -E "^deb +(\[[^]]*\] +)?https?://[^ ]+ +$netlab_suite( |$)" "$f" | head -n 1) || true
        if [ -n "$line" ]; then echo "$line" | sed -E 's/^deb +(\[[^]]*\] +)?//' | cut -d' ' -f1; return; fi
        ;;
    esac
  done
  echo "http://deb.debian.org/debian"
}

# cached_root [PACKAGE...]: prints the folder of the cached root with these extra packages,
# making it first when it is not cached (debootstrap, 2-4 minutes from the mirror). Concurrent
# callers wait for one another (flock).
# ubuntu_keyring: prints the path of the Ubuntu archive keyring, fetched once from the Ubuntu
# archive and checked against the pinned SHA-256.
ubuntu_keyring() {
  local keyring=$netlab_cache/ubuntu-archive-keyring.gpg tmp
  if [ ! -s "$keyring" ]; then
    tmp=$(mktemp -d)
    if ! curl -fsS --max-time 120 -o "$tmp/keyring.deb" "$netlab_ubuntu_mirror/$netlab_ubuntu_keyring_deb" ||
       [ "$(sha256sum < "$tmp/keyring.deb" | cut -d' ' -f1)" != "$netlab_ubuntu_keyring_sha256" ]; then
      rm -rf "$tmp"
      skip_or_fail "cannot fetch the Ubuntu archive keyring ($netlab_ubuntu_mirror/$netlab_ubuntu_keyring_deb, SHA-256 $netlab_ubuntu_keyring_sha256)"
    fi
    dpkg-deb -x "$tmp/keyring.deb" "$tmp/x"
    cp "$tmp/x/usr/share/keyrings/ubuntu-archive-keyring.gpg" "$keyring"
    rm -rf "$tmp"
  fi
  echo "$keyring"
}

cached_root() {
  local mirror key dir tmp start keyring=()
  case "$netlab_suite" in
    jammy) mirror=$netlab_ubuntu_mirror
           command -v curl >/dev/null || skip_or_fail "curl is not installed (./setup.sh deps --package installs it)"
           keyring=(--keyring="$(ubuntu_keyring)") || exit $? ;;
    *) mirror=$(debian_mirror) ;;
  esac
  key=$(printf '%s\n' "$netlab_suite" minbase "$mirror" "$(debootstrap --version)" "$(printf '%s\n' "$@" | sort -u)" |
        sha256sum | cut -c1-16)
  dir="$netlab_cache/$netlab_suite-minbase-$key"
  mkdir -p "$netlab_cache" || skip_or_fail "cannot create the root cache $netlab_cache"
  exec 9> "$netlab_cache/.lock"
  flock 9
  if [ ! -e "$dir/.netlab-root-complete" ]; then
    rm -rf "$dir" "$dir.tmp"
    tmp="$dir.tmp"
    start=$SECONDS
    echo "making a minimal $netlab_suite root from $mirror${1:+ with $*} (cached in $dir)" >&2
    if ! debootstrap --variant=minbase "${keyring[@]}" ${1:+--include="$(IFS=,; echo "$*")"} "$netlab_suite" "$tmp" "$mirror" \
         > "$netlab_cache/debootstrap-$netlab_suite.log" 2>&1; then
      tail -n 20 "$netlab_cache/debootstrap-$netlab_suite.log" >&2
      rm -rf "$tmp"
      flock -u 9
      skip_or_fail "debootstrap could not make the $netlab_suite root from $mirror (log: $netlab_cache/debootstrap-$netlab_suite.log)"
    fi
    # Leave nothing of the host's in the cached root; each copy gets resolv.conf when mounted.
    rm -rf "$tmp/var/cache/apt/archives/"*.deb "$tmp/var/lib/apt/lists/"*_Packages 2>/dev/null || true
    touch "$tmp/.netlab-root-complete"
    mv "$tmp" "$dir"
    echo "root made in $((SECONDS - start)) s: $(du -sh "$dir" | cut -f1)" >&2
  fi
  flock -u 9
  exec 9>&-
  echo "$dir"
}

# fresh_root DEST [PACKAGE...]: a fresh copy of the cached root in DEST.
fresh_root() {
  local dest=$1 src
  shift
  src=$(cached_root "$@") || exit $?
  rm -rf "$dest"
  cp -a "$src" "$dest"
  rm -f "$dest/.netlab-root-complete"
}

# mount_root ROOT: /proc, /sys, /dev (bind, with /dev/pts), /dev/shm and the host's resolv.conf
# (apt inside reaches the mirror). The packages downloaded before for this suite are copied into
# the root's apt archive, and those it downloads are copied back by unmount_roots (under a lock):
# a shared archive bind-mounted into roots used at the same time would make their apt-get runs
# wait for each other's lock, and fail. The caller's EXIT trap must call unmount_roots.
netlab_mounted_roots=()
mount_root() {
  local root=$1
  local archives=$netlab_cache/apt-archives-$netlab_suite
  mkdir -p "$root/proc" "$root/sys" "$root/dev" "$root/var/cache/apt/archives/partial" "$archives"
  netlab_mounted_roots+=("$root|$archives")
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
  mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
  find "$archives" -maxdepth 1 -name '*.deb' -exec cp -n -t "$root/var/cache/apt/archives/" {} + 2>/dev/null || true
  cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

unmount_roots() {
  local entry root archives m
  for entry in "${netlab_mounted_roots[@]}"; do
    root=${entry%|*}
    archives=${entry##*|}
    # Deepest first; lazily, so a process still holding a file does not leave a mount behind.
    for m in $(awk -v r="$(realpath -m "$root")" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts | sort -r); do
      umount -l "$m" 2>/dev/null || true
    done
    (
      flock 8
      find "$root/var/cache/apt/archives" -maxdepth 1 -name '*.deb' -exec cp -n -t "$archives/" {} + 2>/dev/null
    ) 8> "$archives/.lock" || true
  done
  netlab_mounted_roots=()
}

# in_root ROOT COMMAND...: runs COMMAND in the chroot with a clean environment (PATH of a login
# shell, HOME=/root, LANG=C.UTF-8), as Gradescope and a fresh install would.
in_root() {
  local root=$1
  shift
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
      DEBIAN_FRONTEND=noninteractive TERM=dumb chroot "$root" "$@"
}
export -f in_root  # measure runs it in a child shell

# measure NAME COMMAND...: runs COMMAND (a command or a function of this file) and appends
# "NAME cgroup_peak_kib largest_rss_kib wall_s cpu_s how" to $measure_file. The cgroup peak is the
# memory charged to a memory cgroup made for COMMAND and everything it starts (cgroup v2
# memory.peak, or v1 memory.max_usage_in_bytes, with the page cache it reads first; pages another
# cgroup touched first, such as shared libraries already cached, are not charged to it), or "-"
# when no cgroup can be made here; the largest RSS is GNU time's, of the biggest single process
# (shared pages included). cpu_s is the user + system time of COMMAND and everything it waited
# for, which a busy machine does not stretch as it stretches the wall time. Returns COMMAND's
# exit status.
measure_file=${measure_file:-/dev/null}
measure() {
  local name=$1 cg="" how status start end peak="" maxrss="" user sys tfile
  shift
  tfile=$(mktemp)
  cg=$(make_memory_cgroup "netlab-measure-$$-$RANDOM")
  start=$(date +%s.%N)
  if [ -n "$cg" ]; then
    /usr/bin/time -f '%M %U %S' -o "$tfile" bash -c 'echo $$ > "$1/cgroup.procs" && shift && "$@"' measure "$cg" "$@"
    status=$?
  else
    /usr/bin/time -f '%M %U %S' -o "$tfile" bash -c '"$@"' measure "$@"
    status=$?
  fi
  end=$(date +%s.%N)
  read -r maxrss user sys < <(tail -n 1 "$tfile")
  rm -f "$tfile"
  if [ -n "$cg" ]; then
    if [ -r "$cg/memory.peak" ]; then peak=$(( $(cat "$cg/memory.peak") / 1024 )); how="cgroup v2 memory.peak"
    else peak=$(( $(cat "$cg/memory.max_usage_in_bytes") / 1024 )); how="cgroup v1 memory.max_usage_in_bytes"; fi
    rmdir "$cg" 2>/dev/null || true
  else
    peak=-; how="no memory cgroup here: GNU time's largest process only"
  fi
  printf '%s %s %s %s %s %s\n' "$name" "$peak" "$maxrss" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')" "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" \
    "$how" >> "$measure_file"
  return $status
}

# make_memory_cgroup NAME: prints the folder of a new memory cgroup beside this shell's own, or
# nothing when none can be made (no cgroup file system, no permission).
make_memory_cgroup() {
  local name=$1 line path dir
  # cgroup v2: the unified hierarchy, memory enabled for children of our cgroup's parent.
  line=$(grep '^0::' /proc/self/cgroup 2>/dev/null) || true
  if [ -n "$line" ] && [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
    path=${line#0::}
    dir=/sys/fs/cgroup${path%/*}/$name
    if mkdir "$dir" 2>/dev/null; then
      if [ -f "$dir/memory.peak" ]; then echo "$dir"; return; fi
      rmdir "$dir"
    fi
  fi
  # cgroup v1: the memory hierarchy.
  line=$(grep -E '^[0-9]+:memory:' /proc/self/cgroup 2>/dev/null) || true
  if [ -n "$line" ] && [ -d /sys/fs/cgroup/memory ]; then
    path=${line#*:memory:}
    dir=/sys/fs/cgroup/memory${path}/$name
    if mkdir "$dir" 2>/dev/null; then echo "$dir"; return; fi
  fi
}
