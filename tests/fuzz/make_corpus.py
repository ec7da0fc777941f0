#!/usr/bin/python3
"""Seed corpora for the libFuzzer targets, extracted from the recorded captures in captures/.

Recipe (run from anywhere; rewrites the folders of tests/fuzz/corpus/ it fills, deterministic output):

    /usr/bin/python3 tests/fuzz/make_corpus.py

Reads every captures/**/*.pcap and *.pcapng (a small reader here: classic pcap and pcapng
SHB/IDB/EPB/SPB), reassembles each TCP connection per direction, recognises the protocol from the
conversation (HTTP/FTP/SMTP/POP3) and writes each seed in the input format of its target (see
the comment at the top of each tests/fuzz/<name>_fuzz.cpp):

  http_request   client bytes of an HTTP connection            http_response  mode byte + server bytes
  ftp_command    client bytes of an FTP control connection     ftp_reply      split byte + server bytes
  smtp_server    mode byte + client bytes                      smtp_reply     server bytes
  smtp_analyzer  chunks: 0x80|n client, 0x40|n server (n<64)    pop3_analyzer  the same, for POP3
  pop3_server    mode byte + client bytes                      pop3_response  server bytes
  packet         link selector byte + one frame, from every capture's link type
  switch         flags byte + records [port][time step][length][frame] from captures/switch
  pcap           each capture cut to its first packets (classic pcap and pcapng)
  bulk_request   no capture holds one: the 12-byte wire format (NLBT + u64 BE), built here
  proxy_session  records: control byte (length << 3 | kind) + bytes; the client's bytes with the
                 first request made absolute-form, the server's bytes as the origin, end of stream
  dc_parsers     lab-dc's topology and matrix texts (selector byte 0 or 1 + text), written here
  dns            0x00 + a UDP payload of port 53; 0x41 + the client bytes of a DNS-over-TCP
                 connection (length-prefixed messages, fed in pieces of 33 bytes)
  dhcp           a UDP payload between ports 67 and 68
  icmp           version byte (0 ICMP, 1 ICMPv6) + one ICMP message, one per (type, code) seen
  tls            chunks: n client bytes (n < 64), 0x80|n server bytes, of each TLS conversation
  ip_reassembly  fragment scripts built here (in order, reversed, duplicate, overlap, IPv6), since
                 the captured fragments are longer than the script's 255-byte pieces
  users_table    users files (name:password lines), the ones the servers' tests write and faulty ones
  transaction_analyzer  four piece sizes + client length (u16 LE) + client bytes + server bytes, of
                 each HTTP connection, and the cases in TRANSACTION_CASES (built here)

Each seed is cut to MAX_SEED bytes, so the committed corpus stays small. Files named regress-*
are inputs that once made a target fail; they are kept across reruns.
"""
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
MAX_SEED = 4096
MAX_PER_TARGET = 12
# packet_fuzz.cpp's link table order: the selector byte picks one
LINK_SELECTOR = {1: 0, 0: 1, 108: 2, 101: 3, 12: 3, 113: 4, 276: 5, 228: 6, 229: 7}


# ------------------------------------------------------------------ capture files
def read_capture(data):
    """Yields (linktype, frame bytes) for every packet of a pcap or pcapng file."""
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        e = "<" if magic[0] in (0xD4, 0x4D) else ">"
        link = struct.unpack(e + "I", data[20:24])[0] & 0xFFFF
        pos = 24
        while pos + 16 <= len(data):
            incl = struct.unpack(e + "I", data[pos + 8:pos + 12])[0]
            yield link, data[pos + 16:pos + 16 + incl]
            pos += 16 + incl
        return
    pos, e, links = 0, "<", []
    while pos + 12 <= len(data):
        btype = struct.unpack(e + "I", data[pos:pos + 4])[0]
        if btype == 0x0A0D0D0A:
            e = "<" if data[pos + 8:pos + 12] == b"\x4d\x3c\x2b\x1a" else ">"
            links = []
        blen = struct.unpack(e + "I", data[pos + 4:pos + 8])[0]
        if blen < 12:
            return
        body = data[pos + 8:pos + blen - 4]
        if btype == 1:
            links.append(struct.unpack(e + "H", body[0:2])[0])
        elif btype == 6:
            iface, _, _, cap = struct.unpack(e + "IIII", body[0:16])[:4]
            yield links[iface], body[20:20 + cap]
        elif btype == 3 and links:
            yield links[0], body[4:]
        pos += blen


def ip_offset(link, frame):
    if link == 1:
        off, etype = 14, frame[12:14]
        while etype in (b"\x81\x00", b"\x88\xa8"):
            etype, off = frame[off + 2:off + 4], off + 4
        return off if etype in (b"\x08\x00", b"\x86\xdd") else None
    return {0: 4, 108: 4, 101: 0, 12: 0, 228: 0, 229: 0, 113: 16, 276: 20}.get(link)


def tcp_segment(link, frame):
    """(src, sport, dst, dport, seq, flags, payload) of a TCP segment, or None."""
    off = ip_offset(link, frame)
    if off is None or off >= len(frame):
        return None
    version = frame[off] >> 4
    if version == 4:
        ihl = (frame[off] & 15) * 4
        if frame[off + 9] != 6:
            return None
        total = struct.unpack(">H", frame[off + 2:off + 4])[0]
        src, dst, t = frame[off + 12:off + 16], frame[off + 16:off + 20], off + ihl
        end = off + total
    elif version == 6:
        if frame[off + 6] != 6:
            return None
        plen = struct.unpack(">H", frame[off + 4:off + 6])[0]
        src, dst, t = frame[off + 8:off + 24], frame[off + 24:off + 40], off + 40
        end = t + plen
    else:
        return None
    sport, dport, seq = struct.unpack(">HHI", frame[t:t + 8])
    doff = (frame[t + 12] >> 4) * 4
    return src, sport, dst, dport, seq, frame[t + 13], frame[t + doff:end]


def udp_datagram(link, frame):
    """(sport, dport, payload) of a UDP datagram that is not a fragment, or None."""
    off = ip_offset(link, frame)
    if off is None or off >= len(frame):
        return None
    version = frame[off] >> 4
    if version == 4:
        ihl = (frame[off] & 15) * 4
        if frame[off + 9] != 17 or struct.unpack(">H", frame[off + 6:off + 8])[0] & 0x3FFF:
            return None
        u = off + ihl
    elif version == 6:
        if frame[off + 6] != 17:
            return None
        u = off + 40
    else:
        return None
    if u + 8 > len(frame):
        return None
    sport, dport, length = struct.unpack(">HHH", frame[u:u + 6])
    return sport, dport, frame[u + 8:u + max(length, 8)]


def conversations(packets):
    """Per connection: the list of (direction, payload) in capture order, deduplicated by seq;
    direction 'c' is the side that sent the first SYN (or the first segment)."""
    convs, seen = {}, {}
    for link, frame in packets:
        seg = tcp_segment(link, frame)
        if seg is None:
            continue
        src, sport, dst, dport, seq, flags, payload = seg
        key = tuple(sorted([(src, sport), (dst, dport)]))
        conv = convs.setdefault(key, {"client": None, "chunks": []})
        if conv["client"] is None and (flags & 0x12) == 0x02:
            conv["client"] = (src, sport)
        if conv["client"] is None:
            conv["client"] = (src, sport)
        if not payload or (src, sport, seq) in seen:
            continue
        seen[(src, sport, seq)] = True
        conv["chunks"].append(("c" if (src, sport) == conv["client"] else "s", payload))
    return [c["chunks"] for c in convs.values() if c["chunks"]]


def classify(chunks):
    client = b"".join(p for d, p in chunks if d == "c")
    server = b"".join(p for d, p in chunks if d == "s")
    if (len(client) >= 14 and len(server) >= 14 and client[2:4] == server[2:4] and
            struct.unpack(">H", client[:2])[0] + 2 <= len(client) and struct.unpack(">H", server[:2])[0] + 2 <= len(server)):
        return "dns", client, server  # DNS over TCP (RFC 1035 §4.2.2): a length, then messages with the same id
    if client[:2] == b"\x16\x03":
        return "tls", client, server
    if server.startswith(b"HTTP/") or client[:8].split(b" ")[0] in (b"GET", b"HEAD", b"POST", b"PUT", b"DELETE", b"OPTIONS"):
        return "http", client, server
    if server.startswith(b"+OK"):
        return "pop3", client, server
    if server.startswith(b"220"):
        first = client[:4].upper()
        if first in (b"EHLO", b"HELO"):
            return "smtp", client, server
        return "ftp", client, server
    return None, client, server


def chunk_script(chunks):
    """The analyzer fuzzers' format: control byte (0x80|n client, 0x40|n server, n < 64) + bytes."""
    out = bytearray()
    for d, payload in chunks:
        for i in range(0, len(payload), 63):
            piece = payload[i:i + 63]
            out.append((0x80 if d == "c" else 0x40) | len(piece))
            out += piece
    return bytes(out)


def tls_script(chunks):
    """tls_fuzz.cpp's format: control byte (n client bytes, 0x80|n server bytes, n < 64) + bytes."""
    out = bytearray()
    for d, payload in chunks:
        for i in range(0, len(payload), 63):
            piece = payload[i:i + 63]
            out.append((0x00 if d == "c" else 0x80) | len(piece))
            out += piece
    return bytes(out)


def icmp_message(link, frame):
    """(version byte, type, code, message) of an ICMP or ICMPv6 packet that is not a later
    fragment (IPv6 without extension headers), or None."""
    off = ip_offset(link, frame)
    if off is None or off >= len(frame):
        return None
    version = frame[off] >> 4
    if version == 4 and frame[off + 9] == 1:
        frag = struct.unpack(">H", frame[off + 6:off + 8])[0] & 0x1FFF
        total = struct.unpack(">H", frame[off + 2:off + 4])[0]
        message = frame[off + (frame[off] & 15) * 4:off + total]
        return (0, message[0], message[1], message) if frag == 0 and len(message) >= 2 else None
    if version == 6 and frame[off + 6] == 58:
        plen = struct.unpack(">H", frame[off + 4:off + 6])[0]
        message = frame[off + 40:off + 40 + plen]
        return (1, message[0], message[1], message) if len(message) >= 2 else None
    return None


def fragment_scripts():
    """ip_reassembly_fuzz.cpp's format: [control][id][offset/8 hi][lo][length][time step] + data;
    control bit 0 more fragments, bit 1 IPv6, bit 2 the second source, bits 3-7 the protocol."""
    def piece(control, ident, offset, data, step=0):
        return bytes([control, ident, (offset // 8) >> 8, (offset // 8) & 255, len(data), step]) + data
    data = bytes((i * 7) & 255 for i in range(144))
    icmp = 1 << 3
    parts = [(0, 48), (48, 48), (96, 48)]
    in_order = b"".join(piece(icmp | (1 if o + n < 144 else 0), 7, o, data[o:o + n]) for o, n in parts)
    reverse = b"".join(piece(icmp | (1 if o + n < 144 else 0), 7, o, data[o:o + n]) for o, n in reversed(parts))
    duplicate = piece(icmp | 1, 7, 0, data[:48]) + in_order
    overlap = piece(icmp | 1, 7, 0, data[:48]) + piece(icmp | 1, 7, 40, data[40:88]) + in_order[len(data[:48]) + 6:]
    v6 = b"".join(piece(icmp | 2 | (1 if o + n < 144 else 0), 9, o, data[o:o + n]) for o, n in parts)
    timeout = piece(icmp | 1, 8, 0, data[:48]) + piece(icmp, 8, 48, data[48:96], 200)
    return [("in-order", in_order), ("reversed", reverse), ("duplicate", duplicate), ("overlap", overlap),
            ("ipv6", v6), ("timeout", timeout)]


def transaction_script(client, server, sizes=b"\x03\x07\x01\x0c"):
    """transaction_analyzer_fuzz.cpp's format: four piece sizes (low four bits + 1), the client's
    length (u16 little endian), the client's bytes, then the server's."""
    return sizes + struct.pack("<H", min(len(client), 0xFFFF)) + client + server


# Exchanges no capture here holds, for transaction_analyzer: (name, client, server, piece sizes).
TRANSACTION_CASES = [
    ("pipelined",
     b"GET /a HTTP/1.1\r\nHost: h\r\n\r\nHEAD /b HTTP/1.1\r\nHost: h\r\n\r\n"
     b"GET /c HTTP/1.1\r\nHost: h\r\nIf-None-Match: \"x\"\r\nCookie: sid=1; t=2\r\n\r\n"
     b"GET /d HTTP/1.1\r\nHost: h\r\n\r\n",
     b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nSet-Cookie: sid=1; Path=/\r\n\r\nabc"
     b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nHTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"
     b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwxyz\r\n2;e=1\r\n12\r\n0\r\n\r\n",
     b"\x03\x07\x01\x0c"),
    ("conditional-continue",
     b"POST /up HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n"
     b"If-Modified-Since: Tue, 01 Jan 2030 00:00:00 GMT\r\n\r\nbody",
     b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", b"\x0f\x02\x09\x04"),
    ("close-delimited", b"GET / HTTP/1.0\r\n\r\n", b"HTTP/1.0 200 OK\r\n\r\nuntil the end of the stream",
     b"\x00\x05\x0a\x0f"),
    ("server-first", b"USER anonymous\r\n", b"220 ftp ready\r\n", b"\x01\x01\x01\x01"),
    ("swapped", b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", b"GET / HTTP/1.1\r\nHost: h\r\n\r\n",
     b"\x06\x06\x06\x06"),
]


def proxy_script(client, server):
    """proxy_session_fuzz.cpp's format: records of a control byte (n << 3 | kind, n < 32) and n
    bytes; kind 0 client bytes, 2 origin bytes, 4 origin end of stream. The first request line's
    target is made absolute-form (a proxy's request), when it is not already."""
    line_end = client.find(b"\r\n")
    if line_end > 0:
        parts = client[:line_end].split(b" ")
        if len(parts) == 3 and parts[1].startswith(b"/"):
            client = b" ".join([parts[0], b"http://127.0.0.1:8080" + parts[1], parts[2]]) + client[line_end:]
    out = bytearray()
    for kind, payload in ((0, client), (2, server)):
        for i in range(0, len(payload), 31):
            piece = payload[i:i + 31]
            out.append(len(piece) << 3 | kind)
            out += piece
    out.append(4)
    return bytes(out)


# ------------------------------------------------------------------ seeds
class corpus:
    def __init__(self):
        self.seeds = {}

    def add(self, target, name, data):
        if not data:
            return
        files = self.seeds.setdefault(target, {})
        if len(files) >= MAX_PER_TARGET or data[:MAX_SEED] in files.values():
            return
        files[name] = data[:MAX_SEED]

    def write(self):
        # regress-* files are inputs that once failed (regression seeds, kept); the rest of each
        # folder this script fills is rebuilt. Folders of targets it has no seeds for (written by
        # hand: command_line, credentials_guard) are left as they are.
        for target in self.seeds:
            folder = os.path.join(OUT, target)
            for n in os.listdir(folder) if os.path.isdir(folder) else []:
                if not n.startswith("regress-"):
                    os.remove(os.path.join(folder, n))
        for target, files in sorted(self.seeds.items()):
            os.makedirs(os.path.join(OUT, target), exist_ok=True)
            for name, data in sorted(files.items()):
                with open(os.path.join(OUT, target, name), "wb") as f:
                    f.write(data)
        return {t: len(f) for t, f in self.seeds.items()}


def first_packets_pcap(link, frames, count=4):
    out = bytearray(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, link))
    for i, f in enumerate(frames[:count]):
        out += struct.pack("<IIII", 1700000000 + i, 0, len(f), len(f)) + f
    return bytes(out)


# lab-dc's text formats (docs/labs/datacenter.md): topologies, and matrices for a 3x2 leaf-spine
# with one host per leaf (leaf1..3, spine1..2, h1..3).
DC_TOPOLOGIES = [
    ("leaf-spine", "# two leaves\nswitch leaf1\nswitch leaf2\nswitch spine1 tier 2\nhost h1\nhost h2\n"
                   "link h1 leaf1 10Gbps\nlink h2 leaf2 10Gbps\nlink leaf1 spine1 40Gbps\nlink leaf2 spine1 40Gbps\n"),
    ("triangle", "switch a\nswitch b\nswitch c\nlink a b 10Gbps\nlink a c 2.5Gbps\nlink c b 1234bps\n"),
    ("crlf", "switch s\r\nhost h1\r\nhost h2\r\nlink h1 s 1Gbps\r\nlink h2 s 1Gbps\r\n"),
]
DC_MATRICES = [
    ("series", "# time source destination rate\n0s leaf1 leaf2 4Gbps\n0s h1 h3 1Gbps\n1s leaf2 leaf3 9Gbps\n"),
    ("zero", "0s leaf1 leaf3 0bps\n2.5s spine1 leaf2 1kbps\n"),
]


# Users files as the servers' tests and handouts write them, and with each fault the parser names.
USERS_FILES = [
    ("two-users", "alice:secret\nbob:hunter2\n"),
    ("comments-crlf-colon", "# lab users\r\nalice:wonderland\r\n\r\nbob:pa:ss\r\n"),
    ("duplicate", "alice:x\nbob:y\nalice:z\n"),
    ("empty-password", "alice:\n"),
    ("no-colon", "alice wonderland\n"),
    ("bad-name", "../etc:x\n"),
    ("control-character", "alice:won\tderland\n"),
    ("space-around", "alice: secret \n"),
]


def main():
    seeds = corpus()
    for name, client, server, sizes in TRANSACTION_CASES:  # first: the captures fill the rest
        seeds.add("transaction_analyzer", name, transaction_script(client, server, sizes))
    captures = []
    for base, _, names in sorted(os.walk(os.path.join(ROOT, "captures"))):
        captures += [os.path.join(base, n) for n in sorted(names) if n.endswith((".pcap", ".pcapng"))]
    icmp_kinds = set()
    for path in captures:
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path, "rb") as f:
            raw = f.read()
        packets = list(read_capture(raw))
        if not packets:
            continue
        link = packets[0][0]
        seeds.add("pcap", stem + ("-head.pcapng" if raw[:4] == b"\x0a\x0d\x0d\x0a" else "-head.pcap"), raw[:MAX_SEED])
        seeds.add("pcap", stem + "-first4.pcap", first_packets_pcap(link, [p for _, p in packets]))
        for lk, frame in packets:
            m = icmp_message(lk, frame)
            if m and (m[0], m[1], m[2]) not in icmp_kinds:
                icmp_kinds.add((m[0], m[1], m[2]))
                seeds.add("icmp", f"{stem}-{'v6' if m[0] else 'v4'}-{m[1]}-{m[2]}", bytes([m[0]]) + m[3])
        for i, (lk, frame) in enumerate(packets[:40:5]):
            if lk in LINK_SELECTOR:
                seeds.add("packet", f"{stem}-{i}", bytes([LINK_SELECTOR[lk]]) + frame)
        if "switch" in path:
            rec = bytearray([0x01])
            for i, (_, frame) in enumerate(packets[:12]):
                rec += bytes([i % 4, 10, min(len(frame), 255)]) + frame[:255]
            seeds.add("switch", stem, bytes(rec))
        for n, chunks in enumerate(conversations(packets)):
            proto, client, server = classify(chunks)
            name = f"{stem}-{n}"
            if proto == "http":
                seeds.add("http_request", name, client)
                seeds.add("http_response", name, b"\x00" + server)
                seeds.add("proxy_session", name, proxy_script(client, server))
                seeds.add("transaction_analyzer", name, transaction_script(client, server))
            elif proto == "ftp":
                seeds.add("ftp_command", name, client)
                seeds.add("ftp_reply", name, server)
            elif proto == "smtp":
                seeds.add("smtp_server", name, b"\x00" + client)
                seeds.add("smtp_server", name + "-tls", b"\x01" + client)
                seeds.add("smtp_reply", name, server)
                seeds.add("smtp_analyzer", name, chunk_script(chunks))
            elif proto == "dns":
                seeds.add("dns", name + "-tcp", b"\x41" + client)
            elif proto == "tls":
                seeds.add("tls", name, tls_script(chunks))
            elif proto == "pop3":
                seeds.add("pop3_server", name, b"\x00" + client)
                seeds.add("pop3_response", name, server)
                seeds.add("pop3_analyzer", name, chunk_script(chunks))
        for i, (lk, frame) in enumerate(packets):
            d = udp_datagram(lk, frame)
            if d is None:
                continue
            sport, dport, payload = d
            if 53 in (sport, dport):
                seeds.add("dns", f"{stem}-{i}", b"\x00" + payload)
            if {sport, dport} <= {67, 68}:
                seeds.add("dhcp", f"{stem}-{i}", payload)
    for name, script in fragment_scripts():
        seeds.add("ip_reassembly", name, script)
    for n in (0, 1, 12, 1 << 20, 1 << 40, (1 << 64) - 1):
        seeds.add("bulk_request", f"n-{n}", b"NLBT" + struct.pack(">Q", n))
    for name, text in DC_TOPOLOGIES:
        seeds.add("dc_parsers", "topology-" + name, b"\x00" + text.encode())
    for name, text in DC_MATRICES:
        seeds.add("dc_parsers", "matrix-" + name, b"\x01" + text.encode())
    for name, text in USERS_FILES:
        seeds.add("users_table", name, text.encode())
    counts = seeds.write()
    for target in sorted(counts):
        print(f"{target}: {counts[target]} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
