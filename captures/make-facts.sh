#!/bin/sh
# Writes NAME.facts.json beside each capture of the IP, TLS or TCP lab (captures/ip, tls, tcp) from
# tshark's view (captures/tshark-answers.py): the answers that are the same on every run of the
# folder's recipe, the sets of values whose question numbers may move, and the answers that must be
# present though their values move. The recipes call it with their family; what is which:
#   ip   stable: the host, the fragments of each datagram, the route and its hops;
#        sets: the MTUs the errors report, the error types, codes, sources and quoted protocols
#   tls  stable (with the same OpenSSL and curl): versions, cipher suites, SNI, ALPN, groups,
#        certificates, which handshake messages each side sent in clear
#   tcp  stable: the sizes of the first segments; present: the upload's first segments have RTT
#        samples, and a loss happened and was repaired (its time and size move from run to run)
#
#   sh captures/make-facts.sh ip captures/ip/ipv4-path.pcapng captures/ip/ipv6-path.pcapng
#   sh captures/make-facts.sh tls captures/tls/tls-handshakes.pcapng
set -eu
here=$(dirname "$0")
facts() {
  capture=$1
  shift
  /usr/bin/python3 "$here/tshark-answers.py" "$capture" --facts "${capture%.pcapng}.facts.json" "$@"
}
family=${1:-}
[ $# -ge 2 ] || { echo "usage: sh captures/make-facts.sh ip|tls|tcp CAPTURE..." >&2; exit 2; }
shift
for capture in "$@"; do
  case $family in
    ip)
      facts "$capture" --recipe record-ip.sh \
        --stable '(ip|ipv6)\.(host|fragmented_datagrams)' \
        --stable '(ip|ipv6)\.(fragments|fragment_offsets|fragment_lengths|reassembled_length)\.[0-9]+' \
        --stable 'icmpv6?\.(hops|router\.[0-9]+)' \
        --sets 'icmpv6?\.mtu\.[0-9]+' --sets 'icmpv6?\.error_type\.[0-9]+' --sets 'icmpv6?\.error_code\.[0-9]+' \
        --sets 'icmpv6?\.error_source\.[0-9]+' --sets 'icmpv6?\.quoted_protocol\.[0-9]+' ;;
    tls)
      facts "$capture" --recipe record-tls.sh \
        --stable 'tls\.connections' \
        --stable 'tls\.(client_hello_version|client_supported_versions|cipher_suites|sni|alpn|supported_groups|key_share_groups)\.[0-9]+' \
        --stable 'tls\.(server_version|cipher_suite|server_alpn|server_key_share|certificates)\.[0-9]+' \
        --stable 'tls\.(client_messages|server_messages|first_server_record)\.[0-9]+' --stable 'tls\.record_messages\.[0-9]+\.[0-9]+' ;;
    tcp)
      facts "$capture" --recipe record-tcp.sh \
        --stable 'tcp\.segment_length\.1\.[1-6]' --stable 'tcp\.segment_seq\.1\.[1-6]' \
        --present 'tcp\.sample_rtt\.1\.[0-9]+' --present 'tcp\.slow_start_end\.1' \
        --present 'tcp\.congestion_avoidance_start\.1' --present 'tcp\.throughput\.1' ;;
    *)
      echo "make-facts.sh: $family: not ip, tls or tcp" >&2
      exit 2 ;;
  esac
done
