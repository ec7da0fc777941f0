#!/bin/sh
# Recipe for captures/dns/resolver.pcapng (see README.md). Run as root from the repository root
# after building (it needs ip(8), ethtool, bind9's named, unbound and bind9-dnsutils' dig, host, nslookup):
#   BIN=build/release/bin sh captures/dns/record-dns.sh
# It builds six network namespaces on one bridge (10.53.0.0/24), each its own host:
#   root     10.53.0.11  named, authoritative for "." (delegates test. and 0.53.10.in-addr.arpa.)
#   tld      10.53.0.12  named, authoritative for test. (delegates campus.test.)
#   auth     10.53.0.13  named, authoritative for campus.test. and 0.53.10.in-addr.arpa.
#   resolver 10.53.0.2   unbound, a recursive resolver whose only hint is the root above
#   client   10.53.0.10  the student's machine: /etc/resolv.conf names the resolver
# and records the resolver's interface with netlab-record while the client asks (recursively, RD
# set) with dig, host, nslookup and getent: the capture holds the client's queries and answers
# and, between them, the resolver's own iterative queries (RD clear) to root, TLD and domain
# servers. QNAME minimisation is off, so the resolver sends the full name to each server, as the
# textbook describes. The queries, in this order (the questions ask about the first 20 queries
# of a capture by default, so the ones that show something new come first): www.campus.test A
# (dig: the resolver's cache is empty, so it asks the root, the TLD and the domain's server),
# mail.campus.test A and AAAA (nslookup; there is no AAAA: an empty NOERROR answer),
# www.campus.test over TCP (dig +tcp), big.campus.test TXT without EDNS (dig +noedns: the answer
# does not fit 512 bytes, so it comes back truncated and dig asks again over TCP),
# nosuch.campus.test (NXDOMAIN), www.campus.test with RD clear (dig +norecurse: answered from the
# cache), www.campus.test by glibc's resolver (getent ahosts), the PTR of 10.53.0.80 (dig -x: the
# root delegates 0.53.10.in-addr.arpa to the domain's server), campus.test MX (host -t MX),
# _http._tcp.campus.test SRV, web.campus.test (a CNAME to www) and campus.test NS (dig).
# Namespace names start with NETNS_PREFIX (default nldns<pid>); everything is removed at the end.
set -eu
BIN=${BIN:-build/release/bin}
OUT=${OUT:-captures/dns}
P=${NETNS_PREFIX:-nldns$$}
work=$(mktemp -d)
pids=""
made_etc_netns=0
cleanup() {
  for p in $pids; do kill "$p" 2>/dev/null || true; done
  for p in $pids; do wait "$p" 2>/dev/null || true; done
  for n in client resolver root tld auth sw; do ip netns del "$P-$n" 2>/dev/null || true; done
  rm -rf "/etc/netns/$P-client" "$work"
  [ "$made_etc_netns" = 1 ] && rmdir /etc/netns 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# wait_for FILE TEXT: until FILE holds TEXT (at most 10 s).
wait_for() {
  for i in $(seq 1 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "record-dns.sh: timed out waiting for '$2' in $1:" >&2
  cat "$1" >&2
  return 1
}

# --- the network: a bridge in its own namespace, one namespace per host --------------------------
ip netns add "$P-sw"
ip -n "$P-sw" link add br0 type bridge
ip -n "$P-sw" link set br0 up
add_host() {  # add_host NAME ADDRESS MAC
  ip netns add "$P-$1"
  ip netns exec "$P-$1" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
  ip -n "$P-$1" link set lo up
  ip -n "$P-sw" link add "p-$1" type veth peer name eth0 netns "$P-$1"
  ip -n "$P-sw" link set "p-$1" master br0 up
  ip -n "$P-$1" link set eth0 address "$3"
  ip -n "$P-$1" addr add "$2/24" dev eth0
  ip -n "$P-$1" link set eth0 up
  # Checksums computed by the kernel, not left to an offload that veth never does: the captured
  # UDP checksums are the ones a real network card would send.
  ip netns exec "$P-$1" ethtool -K eth0 tx off > /dev/null
}
add_host root 10.53.0.11 02:53:00:00:00:11
add_host tld 10.53.0.12 02:53:00:00:00:12
add_host auth 10.53.0.13 02:53:00:00:00:13
add_host resolver 10.53.0.2 02:53:00:00:00:02
add_host client 10.53.0.10 02:53:00:00:00:10
[ -d /etc/netns ] || { mkdir /etc/netns; made_etc_netns=1; }
mkdir -p "/etc/netns/$P-client"
printf 'nameserver 10.53.0.2\n' > "/etc/netns/$P-client/resolv.conf"

# --- the zones of the made-up hierarchy -----------------------------------------------------------
mkdir -p "$work/root" "$work/tld" "$work/auth" "$work/resolver"
cat > "$work/root/zone" <<'ZONE'
$TTL 86400
@                     IN SOA a.root-servers. hostmaster.root-servers. 2026120101 1800 900 604800 86400
@                     IN NS  a.root-servers.
a.root-servers.       IN A   10.53.0.11
test.                 IN NS  ns.nic.test.
ns.nic.test.          IN A   10.53.0.12
0.53.10.in-addr.arpa. IN NS  ns1.campus.test.
ZONE
cat > "$work/tld/zone" <<'ZONE'
$TTL 86400
@           IN SOA ns.nic.test. hostmaster.nic.test. 2026120101 1800 900 604800 3600
@           IN NS  ns.nic.test.
ns.nic      IN A   10.53.0.12
campus      IN NS  ns1.campus
ns1.campus  IN A   10.53.0.13
ZONE
big=""
for i in 1 2 3 4 5 6; do big="$big \"line $i: a long text record, longer than one 512-byte DNS message can carry over UDP\""; done
cat > "$work/auth/zone" <<ZONE
\$TTL 3600
@           IN SOA   ns1.campus.test. hostmaster.campus.test. 2026120101 7200 3600 1209600 300
@           IN NS    ns1
@           IN MX    10 mail
@           IN TXT   "v=spf1 mx -all"
ns1         IN A     10.53.0.13
www         IN A     10.53.0.80
www         IN AAAA  fd53::80
web         IN CNAME www
mail        IN A     10.53.0.25
_http._tcp  IN SRV   0 5 80 www
big         IN TXT  $big
ZONE
cat > "$work/auth/reverse" <<'ZONE'
$TTL 3600
@   IN SOA ns1.campus.test. hostmaster.campus.test. 2026120101 7200 3600 1209600 300
@   IN NS  ns1.campus.test.
80  IN PTR www.campus.test.
25  IN PTR mail.campus.test.
ZONE

named_conf() {  # named_conf NAME ADDRESS ZONES...: an authoritative-only named
  dir="$work/$1" address=$2
  shift 2
  {
    printf 'options {\n  directory "%s";\n  pid-file "%s/named.pid";\n  session-keyfile "%s/session.key";\n' "$dir" "$dir" "$dir"
    printf '  managed-keys-directory "%s";\n  listen-on port 53 { %s; };\n  listen-on-v6 { none; };\n' "$dir" "$address"
    printf '  recursion no;\n  dnssec-validation no;\n  notify no;\n  allow-transfer { none; };\n};\ncontrols { };\n'
    for z in "$@"; do printf '%s\n' "$z"; done
  } > "$dir/named.conf"
}
named_conf root 10.53.0.11 'zone "." { type primary; file "zone"; };'
named_conf tld 10.53.0.12 'zone "test." { type primary; file "zone"; };'
named_conf auth 10.53.0.13 'zone "campus.test." { type primary; file "zone"; };' \
  'zone "0.53.10.in-addr.arpa." { type primary; file "reverse"; };'
for s in root tld auth; do
  ip netns exec "$P-$s" named -g -c "$work/$s/named.conf" > "$work/$s/log" 2>&1 &
  pids="$pids $!"
done

printf '.                3600000 NS a.root-servers.\na.root-servers.  3600000 A  10.53.0.11\n' > "$work/resolver/root.hints"
cat > "$work/resolver/unbound.conf" <<CONF
server:
  interface: 10.53.0.2
  access-control: 10.53.0.0/24 allow_snoop
  do-ip6: no
  do-daemonize: no
  username: ""
  chroot: ""
  directory: "$work/resolver"
  pidfile: "$work/resolver/unbound.pid"
  use-syslog: no
  logfile: ""
  verbosity: 1
  root-hints: "$work/resolver/root.hints"
  module-config: "iterator"
  qname-minimisation: no
  harden-referral-path: no
  target-fetch-policy: "0 0 0 0 0"
  prefetch: no
  edns-buffer-size: 1232
  num-threads: 1
  # unbound answers test. and the private reverse zones itself by default (RFC 6761, RFC 6303):
  # here they are the lab's hierarchy.
  local-zone: "test." nodefault
  local-zone: "10.in-addr.arpa." nodefault
remote-control:
  control-enable: no
CONF
ip netns exec "$P-resolver" unbound -d -c "$work/resolver/unbound.conf" > "$work/resolver/log" 2>&1 &
pids="$pids $!"
for s in root tld auth; do wait_for "$work/$s/log" 'running$'; done
wait_for "$work/resolver/log" 'start of service'

# --- the recording and the client's questions -----------------------------------------------------
ip netns exec "$P-resolver" "$BIN/netlab-record" --interface eth0 --filter 'port 53' \
  --output "$OUT/resolver.pcapng" > "$work/record.out" &
rec=$!
pids="$pids $rec"
wait_for "$work/record.out" 'capturing on'
c() { ip netns exec "$P-client" "$@" > /dev/null; }
c dig www.campus.test
c nslookup mail.campus.test
c dig +tcp www.campus.test
c dig +noedns big.campus.test TXT
c dig nosuch.campus.test
c dig +norecurse www.campus.test
c getent ahosts www.campus.test
c dig -x 10.53.0.80
c host -t MX campus.test
c dig _http._tcp.campus.test SRV
c dig web.campus.test
c dig campus.test NS
sleep 0.2
kill -INT "$rec"
wait "$rec"
cat "$work/record.out"
