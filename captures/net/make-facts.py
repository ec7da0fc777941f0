#!/usr/bin/python3
# Usage: /usr/bin/python3 captures/net/make-facts.py captures/net/NAME.pcapng ...
# Writes captures/net/<name>.facts.json from tshark's view of a capture (the oracle), so the facts
# do not come from the code they check.
import json, subprocess, sys, hashlib, os

def tshark_streams(path):
    out = subprocess.run(['tshark','-r',path,'-T','fields','-e','tcp.stream'],capture_output=True,text=True).stdout.split()
    return sorted(set(int(x) for x in out if x))
def follow(path, n):
    out = subprocess.run(['tshark','-r',path,'-q','-z',f'follow,tcp,raw,{n}'],capture_output=True,text=True).stdout
    nodes={}; data={0:b'',1:b''}
    for line in out.splitlines():
        if line.startswith('Node 0: '): nodes[0]=line[8:]
        elif line.startswith('Node 1: '): nodes[1]=line[8:]
        elif line.startswith('\t') and all(c in '0123456789abcdef' for c in line.strip()) and line.strip(): data[1]+=bytes.fromhex(line.strip())
        elif line and all(c in '0123456789abcdef' for c in line): data[0]+=bytes.fromhex(line)
    return nodes, data
for path in sys.argv[1:]:
    name = os.path.basename(path)
    packets = len(subprocess.run(['tshark','-r',path,'-T','fields','-e','frame.number'],capture_output=True,text=True).stdout.split())
    convs = []
    for n in tshark_streams(path):
        nodes, data = follow(path, n)
        syn = subprocess.run(['tshark','-r',path,'-Y',f'tcp.stream eq {n} && tcp.flags.syn==1 && tcp.flags.ack==0','-T','fields','-e','frame.number'],capture_output=True,text=True).stdout.split()
        convs.append({
            'client': nodes[0], 'server': nodes[1],
            'client_payload_bytes': len(data[0]), 'server_payload_bytes': len(data[1]),
            'client_sha256': hashlib.sha256(data[0]).hexdigest(), 'server_sha256': hashlib.sha256(data[1]).hexdigest(),
            'handshake_seen': bool(syn),
            'client_first_line': data[0].split(b'\r\n')[0].decode(),
            'server_first_line': data[1].split(b'\r\n')[0].decode(),
        })
    facts = {'capture': name, 'recipe': 'record-loopback.sh', 'oracle': 'tshark -q -z follow,tcp,raw,N',
             'format': 'pcapng' if name.endswith('.pcapng') else 'pcap', 'link_type': 'ethernet',
             'packets': packets, 'conversations': convs}
    out = os.path.join(os.path.dirname(path), name.rsplit('.',1)[0] + '.facts.json')
    open(out,'w').write(json.dumps(facts, indent=2) + '\n')
    print(out)
