#!/usr/bin/python3
"""The facts of the DNS, DHCP and NAT lab captures that do not depend on chance, read by tshark
(the oracle: the facts do not come from the code they check).

    /usr/bin/python3 captures/make-lab-facts.py dns captures/dns/resolver.pcapng > captures/dns/resolver.facts.json
    /usr/bin/python3 captures/make-lab-facts.py dhcp captures/dhcp/client.pcapng > captures/dhcp/client.facts.json
    /usr/bin/python3 captures/make-lab-facts.py nat captures/nat/inside.pcapng captures/nat/outside.pcapng > captures/nat/nat.facts.json

Left out because they change from one recording to the next: transaction ids, the clients' and
the resolver's source ports, times and TTLs counted down in a cache, TCP sequence numbers, the
port a NAT picks when the client's port is taken, the renewal time a server gives a renewing
client (what is left of T1). The recipe test (tests/integration/capture/recipes_test.cpp)
records each capture again and compares these facts with the committed ones.
"""
import json
import subprocess
import sys

SEP = "\x1f"


def rows(path, display_filter, fields):
    argv = ["tshark", "-2", "-n", "-r", path, "-Y", display_filter, "-T", "fields", "-E", "occurrence=a",
            "-E", "aggregator=" + SEP]
    for f in fields:
        argv += ["-e", f]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    result = []
    for line in out.splitlines():
        cells = line.split("\t")
        result.append({f: (c.split(SEP) if c else []) for f, c in zip(fields, cells)})
    return result


def first(row, field):
    return row[field][0] if row[field] else ""


RCODES = ["NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"]
TYPES = {"1": "A", "2": "NS", "5": "CNAME", "6": "SOA", "12": "PTR", "15": "MX", "16": "TXT", "28": "AAAA",
         "33": "SRV"}


def dns_facts(path):
    fields = ["frame.number", "ip.src", "ip.dst", "tcp.srcport", "dns.flags.response", "dns.flags.recdesired",
              "dns.flags.recavail", "dns.flags.authoritative", "dns.flags.truncated", "dns.flags.rcode",
              "dns.qry.name", "dns.qry.type", "dns.count.answers", "dns.resp.type", "dns.a", "dns.aaaa", "dns.ns",
              "dns.cname", "dns.ptr.domain_name", "dns.mx.mail_exchange", "dns.srv.target", "dns.response_in"]
    all_rows = rows(path, "dns", fields)
    by_frame = {first(r, "frame.number"): r for r in all_rows}
    client_queries, iterative = [], set()
    for r in all_rows:
        if first(r, "dns.flags.response") != "0":
            continue
        question = [first(r, "dns.qry.name"), TYPES.get(first(r, "dns.qry.type"), first(r, "dns.qry.type"))]
        if first(r, "dns.flags.recdesired") == "0" and first(r, "ip.src") == "10.53.0.2":
            iterative.add(tuple([first(r, "ip.dst")] + question))
            continue
        resp = by_frame.get(first(r, "dns.response_in"))
        fact = {"from": first(r, "ip.src"), "to": first(r, "ip.dst"), "question": " ".join(question),
                "transport": "tcp" if r["tcp.srcport"] else "udp", "rd": first(r, "dns.flags.recdesired") == "1"}
        if resp:
            data = sorted(resp["dns.a"] + resp["dns.aaaa"] + resp["dns.ns"] + resp["dns.cname"] +
                          resp["dns.ptr.domain_name"] + resp["dns.mx.mail_exchange"] + resp["dns.srv.target"])
            fact.update({"rcode": RCODES[int(first(resp, "dns.flags.rcode"))],
                         "answers": int(first(resp, "dns.count.answers")),
                         "answer_types": sorted(set(TYPES.get(t, t) for t in resp["dns.resp.type"][:int(first(resp, "dns.count.answers"))])),
                         "record_data": data, "aa": first(resp, "dns.flags.authoritative") == "1",
                         "ra": first(resp, "dns.flags.recavail") == "1", "tc": first(resp, "dns.flags.truncated") == "1"})
        client_queries.append(fact)
    return {"capture": "resolver.pcapng", "recipe": "record-dns.sh", "oracle": "tshark",
            "client_queries": client_queries,
            "iterative_queries": [{"server": s, "question": f"{n} {t}"} for s, n, t in sorted(iterative)]}


def dhcp_facts(path):
    fields = ["ip.src", "ip.dst", "udp.srcport", "udp.dstport", "dhcp.option.dhcp", "dhcp.ip.client", "dhcp.ip.your",
              "dhcp.ip.relay", "dhcp.hw.mac_addr", "dhcp.option.ip_address_lease_time", "dhcp.option.subnet_mask",
              "dhcp.option.router", "dhcp.option.domain_name_server", "dhcp.option.dhcp_server_id",
              "dhcp.option.domain_name", "dhcp.option.request_list_item", "dhcp.option.requested_ip_address"]
    names = {"1": "DISCOVER", "2": "OFFER", "3": "REQUEST", "4": "DECLINE", "5": "ACK", "6": "NAK", "7": "RELEASE",
             "8": "INFORM"}
    messages = []
    for r in rows(path, "dhcp", fields):
        m = {"type": names[first(r, "dhcp.option.dhcp")], "src": first(r, "ip.src"), "dst": first(r, "ip.dst"),
             "ports": [int(first(r, "udp.srcport")), int(first(r, "udp.dstport"))],
             "ciaddr": first(r, "dhcp.ip.client"), "yiaddr": first(r, "dhcp.ip.your"),
             "giaddr": first(r, "dhcp.ip.relay"), "chaddr": first(r, "dhcp.hw.mac_addr")}
        for key, field in (("lease_time", "dhcp.option.ip_address_lease_time"), ("subnet_mask", "dhcp.option.subnet_mask"),
                           ("server_id", "dhcp.option.dhcp_server_id"), ("domain", "dhcp.option.domain_name"),
                           ("requested_address", "dhcp.option.requested_ip_address")):
            if r[field]:
                m[key] = first(r, field)
        for key, field in (("router", "dhcp.option.router"), ("dns_servers", "dhcp.option.domain_name_server"),
                           ("parameter_requests", "dhcp.option.request_list_item")):
            if r[field]:
                m[key] = r[field]
        messages.append(m)
    return {"capture": "client.pcapng", "recipe": "record-dhcp.sh", "oracle": "tshark", "messages": messages}


def flows(path):
    fields = ["frame.number", "ip.proto", "ip.src", "ip.dst", "ip.id", "ip.ttl", "tcp.srcport", "tcp.dstport",
              "tcp.seq_raw", "udp.srcport", "udp.dstport"]
    out, seen = [], set()
    for r in rows(path, "ip && (tcp || udp) && !icmp", fields):
        proto = "tcp" if r["tcp.srcport"] else "udp"
        sport, dport = (first(r, f"{proto}.srcport"), first(r, f"{proto}.dstport"))
        key = (proto, first(r, "ip.src"), sport, first(r, "ip.dst"), dport)
        back = (proto, first(r, "ip.dst"), dport, first(r, "ip.src"), sport)
        if key in seen or back in seen:
            continue
        seen.add(key)
        out.append({"proto": proto, "src": first(r, "ip.src"), "sport": int(sport), "dst": first(r, "ip.dst"),
                    "dport": int(dport), "ip_id": first(r, "ip.id"), "ttl": int(first(r, "ip.ttl")),
                    "seq": first(r, "tcp.seq_raw")})
    return out


def nat_facts(inside, outside):
    result = []
    outside_flows = flows(outside)
    for f in flows(inside):
        match = [o for o in outside_flows if o["proto"] == f["proto"] and o["dst"] == f["dst"] and
                 o["dport"] == f["dport"] and o["ip_id"] == f["ip_id"] and o["seq"] == f["seq"]]
        if not match:
            continue
        o = match[0]
        result.append({"proto": f["proto"], "inside": f"{f['src']}:{f['sport']}", "server": f"{f['dst']}:{f['dport']}",
                       "outside_address": o["src"], "port_kept": o["sport"] == f["sport"],
                       "ttl_inside": f["ttl"], "ttl_outside": o["ttl"]})
    return {"captures": ["inside.pcapng", "outside.pcapng"], "recipe": "record-nat.sh", "oracle": "tshark",
            "flows": result}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("dns", "dhcp", "nat") or (sys.argv[1] == "nat") != (len(sys.argv) == 4):
        print(__doc__, file=sys.stderr)
        return 2
    kind = sys.argv[1]
    facts = dns_facts(sys.argv[2]) if kind == "dns" else dhcp_facts(sys.argv[2]) if kind == "dhcp" else nat_facts(*sys.argv[2:4])
    print(json.dumps(facts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
