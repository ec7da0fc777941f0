#!/usr/bin/python3
"""The answers to netlab-grade's IP, ICMP, TLS and TCP-timing questions, read from tshark alone.

Usage: /usr/bin/python3 captures/tshark-answers.py CAPTURE [--max-per-kind N] [--decode-tls PORT ...]

Prints a JSON object {question id: answer}. Nothing here uses netlab: every value comes from the
fields of tshark's dissection (`tshark -T json`), so the answer key `netlab-grade questions CAPTURE
--key` can be checked against an independent reader field by field
(tests/integration/grade/tshark_answers_test.cpp), and the recipes write each capture's stable
facts from it. The definitions (which packet is "the host's", which probe a router answered, what
a sample RTT is) are those of docs/instructor.md, applied to tshark's fields:

  ip.*, ipv6.*      ip.ttl, ip.id, ip.proto, ip.hdr_len, ip.len, ip.flags.df/mf, ip.frag_offset;
                    ipv6.flow, ipv6.hlim, ipv6.nxt, ipv6.plen; fragments as tshark reassembles
                    them (ip.fragment / ipv6.fragment lists, ip.reassembled.length)
  icmp.*, icmpv6.*  icmp.type/code/ident/seq, the reply tshark pairs (icmp.resp_to), the quoted
                    header tshark dissects inside the error, icmp.mtu, icmpv6.mtu
  tls.*             tls.record.*, tls.handshake.* of the connections tshark decodes as TLS
  tcp.*             tcp.seq_raw, tcp.ack_raw, tcp.seq, tcp.ack, tcp.len, tcp.window_size,
                    tcp.flags, frame.time_relative

Answers are written as the key writes them; a "coded" answer (NAME (CODE)) is compared by its
code, durations and rates within their rounding.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ICMP_ERRORS_V4 = {3, 4, 5, 11, 12}


def tshark_json(path, extra=()):
    out = subprocess.run(["tshark", "-n", "-r", path, "-T", "json", "--no-duplicate-keys", *extra],
                         capture_output=True, text=True, check=True).stdout
    return [p["_source"]["layers"] for p in json.loads(out or "[]")]


def one(v):
    """A field that tshark may give as a list (several occurrences): the first."""
    return v[0] if isinstance(v, list) else v


def num(v):
    v = one(v)
    return int(v, 16) if isinstance(v, str) and v.startswith("0x") else int(v)


def as_list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def coded(code):
    return "(%d)" % code


def hexcode(value, digits):
    return "0x%0*x (%d)" % (digits, value, value)


def duration(seconds):
    return "%.3f ms" % (seconds * 1e3)


def instant(seconds):
    return "%.6f s" % seconds


def yes(b):
    return "yes" if b else "no"


def link_local_or_unspecified(addr):
    if ":" in addr:
        return addr == "::" or addr.lower().startswith("fe8") or addr.lower().startswith("fe9") or \
            addr.lower().startswith("fea") or addr.lower().startswith("feb")
    return addr.startswith("0.") or addr.startswith("169.254.")


class Frame:
    def __init__(self, layers):
        self.l = layers
        f = layers["frame"]
        self.number = int(f["frame.number"])
        self.t = float(f["frame.time_relative"])
        self.ip = layers.get("ip")
        self.ipv6 = layers.get("ipv6")
        self.icmp = layers.get("icmp")
        self.icmpv6 = layers.get("icmpv6")


# ------------------------------------------------------------------------------------- IP, ICMP
def ip_answers(frames, out, max_per_kind):
    hosts = {4: None, 6: None}
    for fr in frames:
        if fr.ip and hosts[4] is None:
            err = fr.icmp and num(fr.icmp["icmp.type"]) in ICMP_ERRORS_V4
            if not err and not link_local_or_unspecified(fr.ip["ip.src"]):
                hosts[4] = fr.ip["ip.src"]
        if fr.ipv6 and hosts[6] is None:
            t = num(fr.icmpv6["icmpv6.type"]) if fr.icmpv6 else None
            skip = t is not None and (t < 128 or 130 <= t <= 143)
            if not skip and not link_local_or_unspecified(fr.ipv6["ipv6.src"]):
                hosts[6] = fr.ipv6["ipv6.src"]
    # Packets the host sent.
    n = 0
    for fr in frames:
        if not fr.ip or fr.ip["ip.src"] != hosts[4]:
            continue
        n += 1
        if n > max_per_kind:
            break
        ip = fr.ip
        pre = lambda what: "ip.%s.%d" % (what, n)
        out[pre("ttl")] = str(num(ip["ip.ttl"]))
        out[pre("identification")] = hexcode(num(ip["ip.id"]), 4)
        out[pre("protocol")] = coded(num(ip["ip.proto"]))
        out[pre("header_length")] = str(num(ip["ip.hdr_len"]))
        out[pre("total_length")] = str(num(ip["ip.len"]))
        out[pre("payload_length")] = str(num(ip["ip.len"]) - num(ip["ip.hdr_len"]))
        flags = ip["ip.flags_tree"]
        out[pre("dont_fragment")] = yes(num(flags["ip.flags.df"]))
        out[pre("more_fragments")] = yes(num(flags["ip.flags.mf"]))
        out[pre("fragment_offset")] = str(num(ip["ip.frag_offset"]) * 8)  # tshark 4.0: in 8-byte units
    if hosts[4]:
        out["ip.host"] = hosts[4]
    fragment_answers(frames, out, max_per_kind, v6=False)
    n = 0
    for fr in frames:
        if not fr.ipv6 or fr.ipv6["ipv6.src"] != hosts[6]:
            continue
        n += 1
        if n > max_per_kind:
            break
        h = fr.ipv6
        pre = lambda what: "ipv6.%s.%d" % (what, n)
        out[pre("destination")] = h["ipv6.dst"]
        out[pre("flow_label")] = hexcode(num(h["ipv6.flow"]), 5)
        out[pre("hop_limit")] = str(num(h["ipv6.hlim"]))
        out[pre("next_header")] = coded(num(h["ipv6.nxt"]))
        out[pre("payload_length")] = str(num(h["ipv6.plen"]))
    if hosts[6]:
        out["ipv6.host"] = hosts[6]
    fragment_answers(frames, out, max_per_kind, v6=True)
    for v6 in (False, True):
        echo_answers(frames, out, max_per_kind, v6)
        error_answers(frames, out, max_per_kind, v6)
        path_answers(frames, out, max_per_kind, v6, hosts[6 if v6 else 4])


def fragment_answers(frames, out, max_per_kind, v6):
    """Fragmented datagrams, in the order tshark completes them (the reassembling frame)."""
    by_number = {fr.number: fr for fr in frames}
    family = "ipv6" if v6 else "ip"
    found = []
    for fr in frames:
        h = fr.ipv6 if v6 else fr.ip
        if not h:
            continue
        # The frame that completed a reassembly lists the fragments (ipv6.fragments is a subtree;
        # for IPv4, ip.fragments holds the bytes and ip.fragments_tree the list).
        tree = h.get("ipv6.fragments" if v6 else "ip.fragments_tree")
        if not isinstance(tree, dict):
            continue
        frames_in = [num(x) for x in as_list(tree.get("ipv6.fragment" if v6 else "ip.fragment"))]
        length = num(tree.get("ipv6.reassembled.length" if v6 else "ip.reassembled.length"))
        pieces = []
        for number in frames_in:
            f = by_number[number]
            if v6:
                fh = f.ipv6["ipv6.fraghdr"]
                off = num(fh["ipv6.fraghdr.offset"]) * 8
                pieces.append((off, num(f.ipv6["ipv6.plen"]) - 8))  # after the 8-byte Fragment header
            else:
                pieces.append((num(f.ip["ip.frag_offset"]) * 8, num(f.ip["ip.len"]) - num(f.ip["ip.hdr_len"])))
        pieces.sort()
        found.append((fr, pieces, length))
    if not found:
        return
    out[family + ".fragmented_datagrams"] = str(len(found))
    for n, (fr, pieces, length) in enumerate(found[:max_per_kind], 1):
        out["%s.fragments.%d" % (family, n)] = str(len(pieces))
        out["%s.fragment_offsets.%d" % (family, n)] = ", ".join(str(o) for o, _ in pieces)
        out["%s.fragment_lengths.%d" % (family, n)] = ", ".join(str(l) for _, l in pieces)
        out["%s.reassembled_length.%d" % (family, n)] = str(length)


def icmp_layer(fr, v6):
    return fr.icmpv6 if v6 else fr.icmp


def type_of(layer, v6):
    return num(layer["icmpv6.type" if v6 else "icmp.type"])


def is_error(t, v6):
    return t < 128 if v6 else t in ICMP_ERRORS_V4


def echo_answers(frames, out, max_per_kind, v6):
    family = "icmpv6" if v6 else "icmp"
    p = "icmpv6." if v6 else "icmp."
    request_type = 128 if v6 else 8
    reply_type = 129 if v6 else 0
    requests = [fr for fr in frames if icmp_layer(fr, v6) and type_of(icmp_layer(fr, v6), v6) == request_type]
    if not requests:
        return
    out[family + ".echo_requests"] = str(len(requests))
    by_number = {fr.number: fr for fr in frames}
    replies = {}
    for fr in frames:
        layer = icmp_layer(fr, v6)
        if layer and type_of(layer, v6) == reply_type and (p + "resp_to") in layer:
            replies.setdefault(num(layer[p + "resp_to"]), fr)
    ident = "icmpv6.echo.identifier" if v6 else "icmp.ident"
    seq = "icmpv6.echo.sequence_number" if v6 else "icmp.seq"
    for n, fr in enumerate(requests[:max_per_kind], 1):
        layer = icmp_layer(fr, v6)
        pre = lambda what: "%s.%s.%d" % (family, what, n)
        out[pre("request_type")] = coded(request_type)
        out[pre("request_code")] = str(num(layer[p + "code"]))
        out[pre("identifier")] = hexcode(num(layer[ident]), 4)
        out[pre("sequence")] = hexcode(num(layer[seq]), 4)
        r = replies.get(fr.number)
        if r:
            out[pre("reply_frame")] = str(r.number)
            out[pre("reply_type")] = coded(reply_type)
            out[pre("rtt")] = duration(r.t - fr.t)


def quoted(layer, v6):
    """The datagram an ICMP error quotes, as tshark dissects it inside the message."""
    ip = layer.get("ipv6" if v6 else "ip")
    return ip


def error_answers(frames, out, max_per_kind, v6):
    family = "icmpv6" if v6 else "icmp"
    p = "icmpv6." if v6 else "icmp."
    errors = [fr for fr in frames if icmp_layer(fr, v6) and is_error(type_of(icmp_layer(fr, v6), v6), v6)]
    if not errors:
        return
    out[family + ".errors"] = str(len(errors))
    for n, fr in enumerate(errors[:max_per_kind], 1):
        layer = icmp_layer(fr, v6)
        outer = fr.ipv6 if v6 else fr.ip
        pre = lambda what: "%s.%s.%d" % (family, what, n)
        out[pre("error_type")] = coded(type_of(layer, v6))
        out[pre("error_code")] = coded(num(layer[p + "code"]))
        out[pre("error_source")] = outer["ipv6.src" if v6 else "ip.src"]
        if (p + "mtu") in layer:
            out[pre("mtu")] = str(num(layer[p + "mtu"]))
        q = quoted(layer, v6)
        if not q:
            continue
        out[pre("quoted_destination")] = q["ipv6.dst" if v6 else "ip.dst"]
        if v6:
            nxt = num(q["ipv6.nxt"])
            proto = nxt
            if "ipv6.fraghdr" in q:
                proto = num(q["ipv6.fraghdr"]["ipv6.fraghdr.nxt"])
            out[pre("quoted_protocol")] = coded(proto)
            out[pre("quoted_ttl")] = str(num(q["ipv6.hlim"]))
        else:
            proto = num(q["ip.proto"])
            out[pre("quoted_protocol")] = coded(proto)
            out[pre("quoted_ttl")] = str(num(q["ip.ttl"]))
            out[pre("quoted_identification")] = hexcode(num(q["ip.id"]), 4)
        later = (not v6 and num(q["ip.frag_offset"]) != 0) or \
            (v6 and "ipv6.fraghdr" in q and num(q["ipv6.fraghdr"]["ipv6.fraghdr.offset"]) != 0)
        if later:
            continue
        for tl in ("udp", "tcp"):
            if tl in layer:
                out[pre("quoted_port")] = str(num(layer[tl][tl + ".dstport"]))
        inner = layer.get(family)
        if isinstance(inner, dict):
            iseq = inner.get("icmpv6.echo.sequence_number" if v6 else "icmp.seq")
            if iseq is not None:
                out[pre("quoted_sequence")] = hexcode(num(iseq), 4)
        elif proto == (58 if v6 else 1) and isinstance(layer.get("data"), dict):
            # A quoted first fragment: tshark shows its bytes undissected; an echo's header is in
            # its first 8 (type, code, checksum, identifier, sequence).
            head = bytes.fromhex(layer["data"]["data.data"].replace(":", "")[:16])
            if len(head) == 8 and head[0] in ((128, 129) if v6 else (8, 0)):
                out[pre("quoted_sequence")] = hexcode(int.from_bytes(head[6:8], "big"), 4)


def probe_key(dst, proto, ident, transport):
    return (dst, proto, ident, transport)


def transport_of(container, v6):
    """Ports of UDP/TCP, identifier and sequence of an echo, from a (possibly nested) dissection."""
    for tl in ("udp", "tcp"):
        if tl in container:
            return (num(container[tl][tl + ".srcport"]), num(container[tl][tl + ".dstport"]))
    family = "icmpv6" if v6 else "icmp"
    layer = container.get(family)
    if isinstance(layer, dict):
        i = layer.get("icmpv6.echo.identifier" if v6 else "icmp.ident")
        s = layer.get("icmpv6.echo.sequence_number" if v6 else "icmp.seq")
        if i is not None and s is not None:
            return ("echo", num(i), num(s))
    return None


def path_answers(frames, out, max_per_kind, v6, host):
    family = "icmpv6" if v6 else "icmp"
    if host is None:
        return
    probes = {}      # (dst, proto, id, transport) -> [(frame, ttl)]
    loose = {}       # (dst, proto, id) -> [(frame, ttl)]: IPv4 first fragments carry no transport in tshark
    for fr in frames:
        h = fr.ipv6 if v6 else fr.ip
        if not h or h["ipv6.src" if v6 else "ip.src"] != host:
            continue
        if v6:
            if "ipv6.fraghdr" in h and num(h["ipv6.fraghdr"]["ipv6.fraghdr.offset"]) != 0:
                continue
            dst, proto, ident, ttl = h["ipv6.dst"], num(h["ipv6.nxt"]), 0, num(h["ipv6.hlim"])
            if "ipv6.fraghdr" in h:
                proto = num(h["ipv6.fraghdr"]["ipv6.fraghdr.nxt"])
        else:
            if num(h["ip.frag_offset"]) != 0:
                continue
            dst, proto, ident, ttl = h["ip.dst"], num(h["ip.proto"]), num(h["ip.id"]), num(h["ip.ttl"])
        tr = transport_of(fr.l, v6)
        if fr.l.get(family) and not isinstance(tr, tuple):
            tr = None
        if v6 and fr.icmpv6 and type_of(fr.icmpv6, True) != 128:
            continue  # neighbour discovery and the like are not probes
        probes.setdefault((dst, proto, ident, tr), []).append((fr, ttl))
        loose.setdefault((dst, proto, ident), []).append((fr, ttl))
    answers = []  # (probe frame, ttl, answer frame, destination)
    for fr in frames:
        layer = icmp_layer(fr, v6)
        outer = fr.ipv6 if v6 else fr.ip
        if not layer or outer["ipv6.dst" if v6 else "ip.dst"] != host:
            continue
        src = outer["ipv6.src" if v6 else "ip.src"]
        t = type_of(layer, v6)
        if is_error(t, v6):
            q = quoted(layer, v6)
            if not q or q["ipv6.src" if v6 else "ip.src"] != host:
                continue
            if not v6 and num(q["ip.frag_offset"]) != 0:
                continue
            qdst = q["ipv6.dst" if v6 else "ip.dst"]
            time_exceeded = t == (3 if v6 else 11)
            unreachable_from_dst = t == (1 if v6 else 3) and src == qdst
            if not time_exceeded and not unreachable_from_dst:
                continue
            if v6:
                proto = num(q["ipv6.nxt"])
                if "ipv6.fraghdr" in q:
                    proto = num(q["ipv6.fraghdr"]["ipv6.fraghdr.nxt"])
                ident = 0
            else:
                proto, ident = num(q["ip.proto"]), num(q["ip.id"])
            tr = transport_of(layer, v6)
            cands = probes.get((qdst, proto, ident, tr)) or (loose.get((qdst, proto, ident)) if not v6 else None) or []
            cands = [c for c in cands if c[0].number < fr.number]
            if cands:
                answers.append((cands[-1][0], cands[-1][1], fr, qdst))
        elif t == (129 if v6 else 0):
            i = num(layer["icmpv6.echo.identifier" if v6 else "icmp.ident"])
            s = num(layer["icmpv6.echo.sequence_number" if v6 else "icmp.seq"])
            proto = 58 if v6 else 1
            cands = [c for key, lst in probes.items() if key[0] == src and key[1] == proto and key[3] == ("echo", i, s)
                     for c in lst if c[0].number < fr.number]
            cands.sort(key=lambda c: c[0].number)
            if cands:
                answers.append((cands[-1][0], cands[-1][1], fr, src))
    destination = None
    for probe, ttl, ans, dst in answers:
        asrc = (ans.ipv6 if v6 else ans.ip)["ipv6.src" if v6 else "ip.src"]
        if is_error(type_of(icmp_layer(ans, v6), v6), v6) and asrc != dst:
            destination = dst
            break
    if destination is None:
        return
    by_ttl, reached = {}, None
    for probe, ttl, ans, dst in answers:
        if dst != destination:
            continue
        asrc = (ans.ipv6 if v6 else ans.ip)["ipv6.src" if v6 else "ip.src"]
        from_dst = asrc == destination
        if not from_dst and not is_error(type_of(icmp_layer(ans, v6), v6), v6):
            continue
        by_ttl.setdefault(ttl, (probe, ans))
        if from_dst and (reached is None or ttl < reached):
            reached = ttl
    hops = []
    ttl = 1
    while ttl in by_ttl:
        hops.append(by_ttl[ttl])
        if reached is not None and ttl == reached:
            break
        ttl += 1
    if not hops:
        return
    if reached is not None and len(hops) == reached:
        out[family + ".hops"] = str(reached)
    for h, (probe, ans) in enumerate(hops[:max_per_kind], 1):
        out["%s.router.%d" % (family, h)] = (ans.ipv6 if v6 else ans.ip)["ipv6.src" if v6 else "ip.src"]
        out["%s.hop_rtt.%d" % (family, h)] = duration(ans.t - probe.t)


# ------------------------------------------------------------------------------------------ TLS
VERSION_NAMES = {0x0300: "SSL 3.0", 0x0301: "TLS 1.0", 0x0302: "TLS 1.1", 0x0303: "TLS 1.2", 0x0304: "TLS 1.3"}
GROUP_NAMES = {0x0017: "secp256r1", 0x0018: "secp384r1", 0x0019: "secp521r1", 0x001d: "x25519", 0x001e: "x448",
               0x0100: "ffdhe2048", 0x0101: "ffdhe3072", 0x0102: "ffdhe4096", 0x0103: "ffdhe6144",
               0x0104: "ffdhe8192", 0x001a: "brainpoolP256r1", 0x001b: "brainpoolP384r1",
               0x001c: "brainpoolP512r1", 0x11ec: "X25519MLKEM768", 0x6399: "X25519Kyber768Draft00"}
HANDSHAKE_NAMES = {0: "HelloRequest", 1: "ClientHello", 2: "ServerHello", 4: "NewSessionTicket", 5: "EndOfEarlyData",
                   8: "EncryptedExtensions", 11: "Certificate", 12: "ServerKeyExchange", 13: "CertificateRequest",
                   14: "ServerHelloDone", 15: "CertificateVerify", 16: "ClientKeyExchange", 20: "Finished",
                   22: "CertificateStatus", 24: "KeyUpdate", 254: "MessageHash"}
CONTENT_NAMES = {20: "change_cipher_spec", 21: "alert", 22: "handshake", 23: "application_data", 24: "heartbeat"}


def grease(v):
    return (v & 0x0f0f) == 0x0a0a and (v >> 8) == (v & 0xff)


def find_all(obj, key):
    """Every value of `key` anywhere under obj (tshark nests extensions under named subtrees)."""
    found = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == key:
                found.extend(v if isinstance(v, list) else [v])
            else:
                found.extend(find_all(v, key))
    elif isinstance(obj, list):
        for v in obj:
            found.extend(find_all(v, key))
    return found


def tcp_streams(frames):
    """Per tcp.stream: its frames, the client (the SYN's sender, else the first frame's) and ports."""
    streams = {}
    for fr in frames:
        tcp = fr.l.get("tcp")
        if not isinstance(tcp, dict):
            continue
        sid = num(tcp["tcp.stream"])
        src = ((fr.ip or fr.ipv6) or {}).get("ip.src") or (fr.ipv6 or {}).get("ipv6.src")
        st = streams.setdefault(sid, {"frames": [], "client": None, "first": None})
        ep = (src, num(tcp["tcp.srcport"]))
        flags = num(tcp["tcp.flags"])
        if st["first"] is None:
            st["first"] = ep
        if st["client"] is None and flags & 0x02 and not flags & 0x10:
            st["client"] = ep
        st["frames"].append(fr)
    for st in streams.values():
        if st["client"] is None:
            st["client"] = st["first"]
        if st["client"] is None:
            continue
    return streams


def from_client(fr, st):
    src = (fr.ip or {}).get("ip.src") or (fr.ipv6 or {}).get("ipv6.src")
    return (src, num(fr.l["tcp"]["tcp.srcport"])) == st["client"]


def tls_streams(frames):
    """The streams whose client's first payload byte is a TLS handshake record (0x16 0x03)."""
    out = {}
    for sid, st in tcp_streams(frames).items():
        for fr in st["frames"]:
            tcp = fr.l["tcp"]
            if num(tcp.get("tcp.len", "0")) == 0 or not from_client(fr, st):
                continue
            payload = tcp.get("tcp.payload", "")
            if payload.replace(":", "")[:4] == "1603":
                out[sid] = st
            break
    return out


def records_of(fr):
    layers = fr.l.get("tls")
    recs = []
    for layer in (layers if isinstance(layers, list) else [layers] if layers else []):
        r = layer.get("tls.record") if isinstance(layer, dict) else None
        recs.extend(r if isinstance(r, list) else [r] if r else [])
    return recs


def tls_answers(path, frames, out, max_per_kind):
    streams = tls_streams(frames)
    if not streams:
        return
    ports = sorted({num(st["frames"][0].l["tcp"]["tcp.dstport"] if from_client(st["frames"][0], st)
                        else st["frames"][0].l["tcp"]["tcp.srcport"]) for st in streams.values()})
    extra = []
    for p in ports:
        extra += ["-d", "tcp.port==%d,tls" % p]
    decoded = {}
    for layers in tshark_json(path, extra):
        fr = Frame(layers)
        decoded[fr.number] = fr
    out["tls.connections"] = str(len(streams))
    for n, sid in enumerate(sorted(streams)[:max_per_kind], 1):
        st = streams[sid]
        pre = lambda what: "tls.%s.%d" % (what, n)
        records = []  # (from client, record)
        for fr in st["frames"]:
            for r in records_of(decoded[fr.number]):
                records.append((from_client(fr, st), r))
        ch = next((r for c, r in records if c and 1 in [num(t) for t in find_all(r, "tls.handshake.type")]), None)
        sh = next((r for c, r in records if not c and 2 in [num(t) for t in find_all(r, "tls.handshake.type")]), None)
        if ch is not None:
            out[pre("client_hello_version")] = coded(num(find_all(ch, "tls.handshake.version")[0]))
            versions = [num(v) for v in find_all(ch, "tls.handshake.extensions.supported_version") if not grease(num(v))]
            if versions:
                out[pre("client_supported_versions")] = ", ".join(VERSION_NAMES.get(v, "0x%04x" % v) for v in versions)
            out[pre("cipher_suites")] = str(len(find_all(ch, "tls.handshake.ciphersuite")))
            sni = find_all(ch, "tls.handshake.extensions_server_name")
            if sni:
                out[pre("sni")] = sni[0]
            alpn = find_all(ch, "tls.handshake.extensions_alpn_str")
            if alpn:
                out[pre("alpn")] = ", ".join(alpn)
            groups = [num(g) for g in find_all(ch, "tls.handshake.extensions_supported_group") if not grease(num(g))]
            if groups:
                out[pre("supported_groups")] = ", ".join(GROUP_NAMES.get(g, "0x%04x" % g) for g in groups)
            shares = [num(g) for g in find_all(ch, "tls.handshake.extensions_key_share_group") if not grease(num(g))]
            if shares:
                out[pre("key_share_groups")] = ", ".join(GROUP_NAMES.get(g, "0x%04x" % g) for g in shares)
        if sh is not None:
            selected = find_all(sh, "tls.handshake.extensions.supported_version")
            version = num(selected[0]) if selected else num(find_all(sh, "tls.handshake.version")[0])
            out[pre("server_version")] = coded(version)
            out[pre("cipher_suite")] = coded(num(find_all(sh, "tls.handshake.ciphersuite")[0]))
            alpn = find_all(sh, "tls.handshake.extensions_alpn_str")
            if alpn:
                out[pre("server_alpn")] = alpn[0]
            share = find_all(sh, "tls.handshake.extensions_key_share_group")
            if share:
                g = num(share[0])
                out[pre("server_key_share")] = GROUP_NAMES.get(g, "0x%04x" % g)
        for c, r in records:
            if not c and 11 in [num(t) for t in find_all(r, "tls.handshake.type")]:
                out[pre("certificates")] = str(len(find_all(r, "tls.handshake.certificate")))
                break
        for who, key in ((True, "client_messages"), (False, "server_messages")):
            types = [num(t) for c, r in records if c == who for t in find_all(r, "tls.handshake.type")]
            if types:
                out[pre(key)] = ", ".join(HANDSHAKE_NAMES.get(t, "type %d" % t) for t in types)
        first_server = next((r for c, r in records if not c), None)
        if first_server is not None:
            types = [num(t) for t in find_all(first_server, "tls.handshake.type")]
            if types:
                out[pre("first_server_record")] = ", ".join(HANDSHAKE_NAMES.get(t, "type %d" % t) for t in types)

        for i, (c, r) in enumerate(records, 1):
            types = [num(t) for t in find_all(r, "tls.handshake.type")]
            if types:
                out["tls.record_messages.%d.%d" % (n, i)] = ", ".join(HANDSHAKE_NAMES.get(t, "type %d" % t) for t in types)

        def content(r):
            return num(r.get("tls.record.content_type", r.get("tls.record.opaque_type")))
        out[pre("client_records")] = str(sum(1 for c, r in records if c))
        out[pre("server_records")] = str(sum(1 for c, r in records if not c))
        out[pre("client_application_data")] = str(sum(1 for c, r in records if c and content(r) == 23))
        out[pre("server_application_data")] = str(sum(1 for c, r in records if not c and content(r) == 23))
        encrypted = sum(1 for c, r in records if content(r) == 22 and not find_all(r, "tls.handshake.type"))
        if encrypted:
            out[pre("encrypted_handshake_records")] = str(encrypted)
        names = []
        for c, r in records:
            name = CONTENT_NAMES.get(content(r), "type %d" % content(r))
            if name not in names:
                names.append(name)
        out[pre("record_types")] = ", ".join(names)


# --------------------------------------------------------------------------- TCP (second half)
def tcp_timing_answers(frames, out, max_per_kind):
    """Per TCP conversation (the first max_per_kind by tcp.stream) that carried data: its handshake,
    the data sender's first six data segments with sample RTT and RFC 6298 estimates, the smallest
    window, retransmissions, throughput, the first loss and its recovery."""
    alpha, beta, k = 0.125, 0.25, 4
    for sid, st in sorted(tcp_streams(frames).items()):
        if sid >= max_per_kind:
            break
        segs = []
        for fr in st["frames"]:
            tcp = fr.l["tcp"]
            flags = num(tcp["tcp.flags"])
            segs.append({"c": from_client(fr, st), "t": fr.t, "flags": flags, "seq": num(tcp["tcp.seq"]),
                         "ack": num(tcp.get("tcp.ack", "0")), "len": num(tcp.get("tcp.len", "0")),
                         "raw_seq": num(tcp["tcp.seq_raw"]), "raw_ack": num(tcp.get("tcp.ack_raw", "0")),
                         "win": num(tcp.get("tcp.window_size", tcp.get("tcp.window_size_value"))),
                         "flight": tcp.get("tcp.analysis", {}).get("tcp.analysis.bytes_in_flight")
                         if isinstance(tcp.get("tcp.analysis"), dict) else None,
                         "rexmit": any(find_all(tcp.get("tcp.analysis", {}), f) for f in (
                             "tcp.analysis.retransmission", "tcp.analysis.fast_retransmission",
                             "tcp.analysis.spurious_retransmission"))})
        if not any(x["len"] for x in segs):
            continue
        n = sid + 1
        syn = next((x for x in segs if x["c"] and x["flags"] & 0x02 and not x["flags"] & 0x10), None)
        if syn:
            out["tcp.syn_seq.%d" % n] = str(syn["raw_seq"])
        synack = next((x for x in segs if not x["c"] and x["flags"] & 0x12 == 0x12), None)
        if synack:
            out["tcp.synack_seq.%d" % n] = str(synack["raw_seq"])
            out["tcp.synack_ack.%d" % n] = str(synack["raw_ack"])
        if not syn:
            continue
        # The data sender: the side whose sequence numbers went further (the more payload).
        sent = {True: 0, False: 0}
        for x in segs:
            if x["len"]:
                sent[x["c"]] = max(sent[x["c"]], x["seq"] + x["len"] - 1)
        sender = sent[False] <= sent[True]
        # Retransmission: a segment that starts before the highest sequence number sent before it.
        high = None
        for x in segs:
            if x["c"] != sender:
                continue
            span = x["len"] + (1 if x["flags"] & 0x02 else 0) + (1 if x["flags"] & 0x01 else 0)
            x["resent"] = bool(span and high is not None and x["seq"] < high)
            if span and (high is None or x["seq"] + span > high):
                high = x["seq"] + span
        data = [i for i, x in enumerate(segs) if x["c"] == sender and x["len"]]
        srtt = rttvar = None
        for kk, i in enumerate(data[:min(6, max_per_kind)], 1):
            x = segs[i]
            pre = lambda what: "tcp.%s.%d.%d" % (what, n, kk)
            out[pre("segment_seq")] = str(x["seq"])
            out[pre("segment_length")] = str(x["len"])
            end = x["seq"] + x["len"]
            ack = next((j for j in range(i + 1, len(segs)) if segs[j]["c"] != sender and segs[j]["flags"] & 0x10
                        and segs[j]["ack"] >= end), None)
            if ack is not None:
                out[pre("ack_time")] = instant(segs[ack]["t"])
            until = ack if ack is not None else len(segs)
            ambiguous = x["resent"] or any(
                segs[j]["c"] == sender and segs[j]["resent"] and segs[j]["len"] and segs[j]["seq"] < end and
                x["seq"] < segs[j]["seq"] + segs[j]["len"] for j in range(i + 1, until))
            if ack is not None and not ambiguous:
                r = segs[ack]["t"] - x["t"]
                out[pre("sample_rtt")] = duration(r)
                if srtt is None:
                    srtt, rttvar = r, r / 2
                else:
                    rttvar = (1 - beta) * rttvar + beta * abs(srtt - r)
                    srtt = (1 - alpha) * srtt + alpha * r
            if srtt is not None:
                out[pre("estimated_rtt")] = duration(srtt)
                out[pre("dev_rtt")] = duration(rttvar)
                out[pre("timeout")] = duration(srtt + k * rttvar)
        windows = [x["win"] for x in segs if x["c"] != sender]
        if windows:
            out["tcp.min_window.%d" % n] = str(min(windows))
        resent = [i for i in data if segs[i]["resent"]]
        flagged = [i for i in data if segs[i]["rexmit"]]
        # What Wireshark flags (retransmission, fast or spurious retransmission) is the count asked;
        # it must be the segments that resend bytes.
        out["tcp.retransmissions.%d" % n] = str(len(flagged)) if flagged == resent else "tshark flags %s, resent %s" % (flagged, resent)
        last_end = max(segs[i]["seq"] + segs[i]["len"] for i in data)
        first = data[0]
        done = next((j for j in range(first + 1, len(segs)) if segs[j]["c"] != sender and segs[j]["flags"] & 0x10
                     and segs[j]["ack"] >= last_end), None)
        if done is not None and segs[done]["t"] > segs[first]["t"]:
            out["tcp.throughput.%d" % n] = "%.0f B/s" % ((last_end - segs[first]["seq"]) / (segs[done]["t"] - segs[first]["t"]))
        if not resent:
            continue
        loss = resent[0]
        out["tcp.slow_start_end.%d" % n] = instant(segs[loss]["t"])
        out["tcp.slow_start_end_seq.%d" % n] = str(segs[loss]["seq"])
        flights = [num(segs[i]["flight"]) for i in data if i < loss and segs[i]["flight"] is not None]
        out["tcp.flight_at_loss.%d" % n] = str(max(flights) if flights else 0)
        point = max(segs[i]["seq"] + segs[i]["len"] + (1 if segs[i]["flags"] & 0x01 else 0)
                    for i in range(loss) if segs[i]["c"] == sender)
        recovered = next((j for j in range(loss + 1, len(segs)) if segs[j]["c"] != sender and segs[j]["flags"] & 0x10
                          and segs[j]["ack"] >= point), None)
        if recovered is not None:
            out["tcp.congestion_avoidance_start.%d" % n] = instant(segs[recovered]["t"])


def facts(answers, capture, recipe, stable, sets, present):
    """The facts of a capture that do not depend on the run: the answers whose id matches one of
    the `stable` patterns, for each `sets` pattern the set of values of the ids it matches (a
    value whose question number may change from run to run, e.g. the MTUs errors report), and for
    each `present` pattern how many questions match it (a fact such as "there was a loss", whose
    answers move from run to run)."""
    out = {"capture": os.path.basename(capture), "recipe": recipe,
           "oracle": "captures/tshark-answers.py (tshark's fields)", "stable": {}, "sets": {}, "present": {}}
    for p in present:
        out["present"][p] = sum(1 for qid in answers if re.fullmatch(p, qid))
    for qid, answer in sorted(answers.items()):
        if any(re.fullmatch(p, qid) for p in stable):
            out["stable"][qid] = answer
    for p in sets:
        out["sets"][p] = sorted({a for qid, a in answers.items() if re.fullmatch(p, qid)})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    ap.add_argument("--max-per-kind", type=int, default=20)
    ap.add_argument("--decode-tls", type=int, action="append", default=[], help="decode this TCP port as TLS")
    ap.add_argument("--facts", help="write the stable facts (with --stable, --sets) to this file instead")
    ap.add_argument("--recipe", default="", help="the recipe named in the facts file")
    ap.add_argument("--stable", action="append", default=[], help="regular expression of stable question ids")
    ap.add_argument("--sets", action="append", default=[], help="regular expression of ids whose values form a stable set")
    ap.add_argument("--present", action="append", default=[], help="regular expression of ids that must be asked")
    a = ap.parse_args()
    frames = [Frame(l) for l in tshark_json(a.capture)]
    out = {}
    ip_answers(frames, out, a.max_per_kind)
    tls_answers(a.capture, frames, out, a.max_per_kind)
    tcp_timing_answers(frames, out, a.max_per_kind)
    if a.facts:
        with open(a.facts, "w") as f:
            json.dump(facts(out, a.capture, a.recipe, a.stable, a.sets, a.present), f, indent=2, sort_keys=True)
            f.write("\n")
        print(a.facts)
        return
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
