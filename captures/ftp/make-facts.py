#!/usr/bin/python3
"""Usage: /usr/bin/python3 captures/ftp/make-facts.py captures/ftp/NAME.pcapng  (control port 2121)

Writes captures/ftp/<name>.facts.json from tshark's view of an FTP capture (the oracle, so the
facts do not come from the code they check): per control connection (tcp.stream) the commands
with their final reply codes (ftp.request.command/arg, ftp.response.code), and per data
connection (every other TCP stream) the bytes and SHA-256 of the direction that carried data
(tshark -q -z follow,tcp,raw,N)."""
import hashlib
import json
import os
import subprocess
import sys


FTP_PORT = os.environ.get("FTP_PORT", "2121")


def tshark(*args):
    args = ["-d", f"tcp.port=={FTP_PORT},ftp", *args]
    return subprocess.run(["tshark", *args], capture_output=True, text=True, check=True).stdout


def follow(path, n):
    out = tshark("-r", path, "-q", "-z", f"follow,tcp,raw,{n}")
    nodes, data = {}, {0: b"", 1: b""}
    for line in out.splitlines():
        if line.startswith("Node 0: "):
            nodes[0] = line[8:]
        elif line.startswith("Node 1: "):
            nodes[1] = line[8:]
        elif line.startswith("\t") and line.strip() and all(c in "0123456789abcdef" for c in line.strip()):
            data[1] += bytes.fromhex(line.strip())
        elif line and all(c in "0123456789abcdef" for c in line):
            data[0] += bytes.fromhex(line)
    return nodes, data


def main(path):
    rows = tshark("-r", path, "-Y", "ftp", "-T", "fields", "-E", "separator=\t", "-e", "tcp.stream",
                  "-e", "ftp.request.command", "-e", "ftp.request.arg", "-e", "ftp.response.code")
    sessions = {}
    for line in rows.splitlines():
        stream, verb, arg, code = (line.split("\t") + ["", "", "", ""])[:4]
        s = sessions.setdefault(int(stream), {"commands": [], "pending": []})
        if verb:
            c = {"verb": verb, "argument": arg, "reply_code": None}
            s["commands"].append(c)
            s["pending"].append(c)
        for code_text in filter(None, code.split(",")):
            code_num = int(code_text)
            if code_num < 200 or not s["pending"]:
                continue
            s["pending"].pop(0)["reply_code"] = code_num
    # Every other TCP stream is a data connection (the recipe's filter keeps only the FTP server's
    # traffic); tshark itself recognises passive ftp-data streams but not all active ones.
    all_streams = {int(x) for x in tshark("-r", path, "-T", "fields", "-e", "tcp.stream").split()}
    data_streams = sorted(all_streams - set(sessions))
    transfers = []
    for n in data_streams:
        nodes, data = follow(path, n)
        i = 0 if len(data[0]) >= len(data[1]) else 1
        transfers.append({"stream": n, "tcp_client": nodes[0], "tcp_server": nodes[1], "bytes": len(data[i]),
                          "sha256": hashlib.sha256(data[i]).hexdigest()})
    facts = {
        "capture": os.path.basename(path),
        "recipe": "record-ftp.sh",
        "control_port": int(FTP_PORT),
        "oracle": "tshark -Y ftp fields; tshark -q -z follow,tcp,raw,N for ftp-data streams",
        "sessions": [{"stream": k, "commands": v["commands"]} for k, v in sorted(sessions.items())],
        "data_connections": transfers,
    }
    out = os.path.join(os.path.dirname(path), os.path.basename(path).rsplit(".", 1)[0] + ".facts.json")
    with open(out, "w") as f:
        f.write(json.dumps(facts, indent=2) + "\n")
    print(out)


if __name__ == "__main__":
    for p in sys.argv[1:]:
        main(p)
