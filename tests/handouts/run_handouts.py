#!/usr/bin/python3
"""Runs the shell commands of lab handouts (docs/labs/*.md) with the built programs, so that a
handout command that fails fails the test (CTest: handout.<name>, label `handouts`).

    run_handouts.py --bin BUILD/bin --source CHECKOUT docs/labs/http.md [more.md ...]

The convention in the Markdown (also in docs/testing.md, "Handouts"):

* A fenced block opened with ```sh holds commands a student types; every other block (```text
  for output, ```conf for a file, an indented block) is shown, never run.
* Each ```sh block runs with `bash -e -o pipefail` in one scratch folder per handout (HOME is that
  folder, `captures` in it links to the checkout's captures/, PATH starts with the built programs
  and includes /usr/sbin), after the blocks before it, and must exit 0 within 180 s.
* An HTML comment on the line before the fence says how a block is special; the runner does what
  it says and prints every block it does not run with the reason:
    <!-- handout: server [PORT] -->   one command that starts a server and keeps running: started
        in the background, ready when it prints `listening on HOST:PORT` (on stdout, or on stderr
        for a server given --json). The handout's fixed port (from `--listen HOST:PORT`, or PORT
        given here for a server that picks its own) is replaced by port 0, and every later mention
        of that port by the port the server got, so tests never use fixed ports. A later server with the same handout port replaces the
        earlier one. Servers are stopped with SIGINT (Ctrl-C) at the end and must exit 0.
    <!-- handout: session PROMPT -->  an interactive program: the first line is the command, the
        following lines that start with PROMPT (e.g. `ftp>`) are typed at it (its stdin).
    <!-- handout: root -->            needs root: run (a leading `sudo ` dropped) only when the
        test runs as root, as CI does; otherwise skipped, saying so.
    <!-- handout: skip REASON -->     never run, because of REASON (e.g. the student types at nc).
* A block that fails because a program is not installed (exit 127) is skipped with its name,
  except under CI=true, where it fails (as the project's integration tests treat missing peers).
* Commands written inline in the prose (`lab-...` in backquotes) are listed as not run.
"""
import argparse
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time

BLOCK_TIMEOUT_S = 180
READY_TIMEOUT_S = 30
STOP_TIMEOUT_S = 20
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>```+|~~~+)\s*(?P<info>[^\s`]*)")
ANNOTATION = re.compile(r"^\s*<!--\s*handout:\s*(?P<kind>\w+)\s*(?P<arg>.*?)\s*-->\s*$")
LISTEN = re.compile(r"(--listen\s+)(\[[0-9a-fA-F:]+\]|[\w.-]+):(\d+)")
READY = re.compile(r"listening on (\S+):(\d+)")
INLINE = re.compile(r"`((?:sudo )?(?:lab|netlab)-[a-z]+ [^`]*)`")


class Block:
    def __init__(self, path, line, info, text, annotation):
        self.path, self.line, self.info, self.text, self.annotation = path, line, info, text, annotation

    @property
    def where(self):
        return f"{os.path.basename(self.path)}:{self.line}"

    @property
    def first_line(self):
        first = self.text.strip().splitlines()[0] if self.text.strip() else ""
        return first if len(first) <= 70 else first[:67] + "..."


def parse(path):
    """The fenced blocks of a Markdown file with their annotations, and the inline commands."""
    blocks, inline = [], []
    lines = open(path, encoding="utf-8").read().split("\n")
    i, annotation, last_text = 0, None, ""
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            a = ANNOTATION.match(lines[i])
            if a:
                annotation = (a.group("kind"), a.group("arg"))
            elif lines[i].strip():
                for cmd in INLINE.findall(lines[i]):
                    inline.append((i + 1, cmd))
                annotation = None
            i += 1
            continue
        indent, fence, info = len(m.group("indent")), m.group("fence"), m.group("info")
        body, start = [], i + 1
        i += 1
        while i < len(lines) and not lines[i].lstrip(" ").startswith(fence):
            text = lines[i]
            body.append(text[min(indent, len(text) - len(text.lstrip(" "))):])
            i += 1
        i += 1  # the closing fence
        # The lines' common indentation goes too: a block may keep the four spaces of the indented
        # block it was (rendered the same, and a smaller change to a handout).
        blocks.append(Block(path, start, info, textwrap.dedent("\n".join(body)) + "\n", annotation))
        annotation = None
    return blocks, inline


class Server:
    def __init__(self, block, argv_text, handout_port, env, cwd):
        self.block, self.handout_port = block, handout_port
        self.proc = subprocess.Popen(["bash", "-c", "exec " + argv_text], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.out, self.err = b"", b""
        self.address = None
        # The line is on stdout, or on stderr for a server given --json (docs/conventions.md).
        deadline = time.monotonic() + READY_TIMEOUT_S
        streams = {self.proc.stdout.fileno(): "out", self.proc.stderr.fileno(): "err"}
        while self.address is None and streams and time.monotonic() < deadline:
            ready, _, _ = select.select(list(streams), [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                break
            for fd in ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    del streams[fd]
                    continue
                setattr(self, streams[fd], getattr(self, streams[fd]) + chunk)
                m = READY.search(getattr(self, streams[fd]).decode("utf-8", "replace"))
                if m and self.address is None:
                    self.address = (m.group(1), int(m.group(2)))
        # Keep draining both streams so that the server never blocks on a full pipe.
        for pipe, name in ((self.proc.stdout, "out"), (self.proc.stderr, "err")):
            threading.Thread(target=self._drain, args=(pipe, name), daemon=True).start()

    def _drain(self, pipe, name):
        for chunk in iter(lambda: pipe.read1(65536), b""):
            setattr(self, name, getattr(self, name) + chunk)

    def stderr_text(self):
        return self.err.decode("utf-8", "replace")

    def stop(self):
        """SIGINT (Ctrl-C), then SIGKILL to the group at the deadline; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                pass
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            return "killed after SIGINT was ignored for %d s" % STOP_TIMEOUT_S
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # anything it left behind
        except ProcessLookupError:
            pass
        return self.proc.returncode


class Runner:
    def __init__(self, args, handout):
        self.handout = handout
        self.name = os.path.basename(handout)
        self.dir = tempfile.mkdtemp(prefix="netlab-handout-%s-" % os.path.splitext(self.name)[0])
        os.symlink(os.path.join(args.source, "captures"), os.path.join(self.dir, "captures"))
        self.env = dict(os.environ)
        self.env["HOME"] = self.dir
        self.env["PATH"] = os.pathsep.join([args.bin, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin",
                                            "/sbin", "/bin"])
        self.env["TMPDIR"] = self.dir
        self.ports = {}    # the handout's port -> the port the server got
        self.servers = {}  # the handout's port -> Server
        self.failures, self.skipped, self.ran = [], 0, 0
        self.ci = os.environ.get("CI") == "true"

    def say(self, kind, block, text):
        print(f"  {kind:<7} {block.where:<16} {text}", flush=True)

    def fail(self, block, text, detail=""):
        self.failures.append(block.where)
        self.say("FAIL", block, text)
        for line in detail.rstrip().splitlines()[-40:]:
            print("          | " + line)

    def mapped(self, text):
        """Every mention of a handout's port replaced by the port its server got, in one pass."""
        if not self.ports:
            return text
        pattern = r"(?<!\d)(%s)(?!\d)" % "|".join(str(p) for p in self.ports)
        return re.sub(pattern, lambda m: str(self.ports[int(m.group(1))]), text)

    def run_block(self, block, text, stdin=""):
        started = time.monotonic()
        try:
            r = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=self.dir, env=self.env, input=stdin,
                               capture_output=True, text=True, errors="replace", timeout=BLOCK_TIMEOUT_S,
                               start_new_session=True)
        except subprocess.TimeoutExpired as e:
            return self.fail(block, f"{block.first_line}: still running after {BLOCK_TIMEOUT_S} s",
                             (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or ""))
        took = time.monotonic() - started
        missing = re.search(r"(\S+): command not found", r.stderr)
        ours = missing and re.match(r"(lab|netlab)-", missing.group(1))  # a netlab program is never optional
        if r.returncode == 127 and missing and not ours and not self.ci:
            self.skipped += 1
            return self.say("skip", block, f"{block.first_line}: needs '{missing.group(1)}', which is not installed "
                                           "(under CI=true this fails)")
        if r.returncode != 0:
            return self.fail(block, f"{block.first_line}: exit {r.returncode}",
                             "stdout:\n" + r.stdout[-3000:] + "\nstderr:\n" + r.stderr[-3000:])
        self.ran += 1
        self.say("ok", block, f"{block.first_line} ({took:.1f} s)")

    def start_server(self, block, arg):
        text = block.text.strip()
        handout_port = int(arg) if arg.isdigit() else None
        m = LISTEN.search(text)  # the server's own port, before any mapping
        if m and m.group(3) != "0":
            handout_port = int(m.group(3))
            text = text[:m.start()] + m.group(1) + m.group(2) + ":0" + text[m.end():]
        text = self.mapped(text)  # other servers' ports it names
        if handout_port in self.servers:
            old = self.servers.pop(handout_port)
            self.say("stop", block, f"the server of {old.block.where} (port {handout_port} again): exit {old.stop()}")
        server = Server(block, text, handout_port, self.env, self.dir)
        if server.address is None:
            server.stop()
            return self.fail(block, f"{block.first_line}: no 'listening on HOST:PORT' within {READY_TIMEOUT_S} s",
                             "stdout:\n" + server.out.decode("utf-8", "replace") + "\nstderr:\n" + server.stderr_text())
        self.ran += 1
        key = handout_port if handout_port is not None else -len(self.servers) - 1
        self.servers[key] = server
        if handout_port is not None:
            self.ports[handout_port] = server.address[1]
        note = f" (the handout's {handout_port})" if handout_port is not None else ""
        self.say("server", block, f"{block.first_line}: listening on {server.address[0]}:{server.address[1]}{note}")

    def session(self, block, prompt):
        lines = self.mapped(block.text).rstrip("\n").split("\n")
        command = [l for l in lines if not l.startswith(prompt)]
        typed = [l[len(prompt):].lstrip(" ") for l in lines if l.startswith(prompt)]
        self.run_block(block, "\n".join(command), "\n".join(typed) + "\n")

    def run(self):
        blocks, inline = parse(self.handout)
        shell = [b for b in blocks if b.info in ("sh", "bash", "shell")]
        print(f"handout {self.name}: {len(shell)} shell blocks of {len(blocks)} fenced blocks; scratch folder {self.dir}")
        try:
            for b in shell:
                kind, arg = b.annotation if b.annotation else ("run", "")
                if kind == "skip":
                    self.skipped += 1
                    self.say("skip", b, f"{b.first_line}: {arg or 'no reason given'}")
                    if not arg:
                        self.fail(b, "a skip annotation must give its reason")
                elif kind == "root" and os.geteuid() != 0:
                    self.skipped += 1
                    self.say("skip", b, f"{b.first_line}: needs root (the test runs it when run as root, as in CI)")
                elif kind == "root":
                    self.run_block(b, re.sub(r"(?m)^(\s*)sudo\s+", r"\1", self.mapped(b.text)))
                elif kind == "server":
                    self.start_server(b, arg)
                elif kind == "session":
                    if not arg:
                        self.fail(b, "a session annotation must name the prompt, e.g. <!-- handout: session ftp> -->")
                    else:
                        self.session(b, arg)
                elif kind == "run":
                    self.run_block(b, self.mapped(b.text))
                else:
                    self.fail(b, f"unknown annotation '{kind}' (server, session, root, skip)")
        finally:
            for server in self.servers.values():
                status = server.stop()
                if status != 0:
                    self.fail(server.block, f"the server exited {status} on SIGINT",
                              "stdout:\n" + server.out.decode("utf-8", "replace")[-2000:] + "\nstderr:\n" +
                              server.stderr_text()[-2000:])
                else:
                    self.say("stopped", server.block, f"{server.block.first_line}: exit 0 on SIGINT")
        for line, cmd in inline:
            print(f"  inline  {self.name}:{line:<10} not run (a command in the prose): {cmd[:70]}")
        print(f"handout {self.name}: {self.ran} run, {self.skipped} skipped, {len(self.failures)} failed")
        if not self.failures:
            shutil.rmtree(self.dir, ignore_errors=True)
        else:
            print(f"handout {self.name}: the scratch folder {self.dir} is kept for a look")
        return not self.failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", required=True, help="folder of the built programs")
    p.add_argument("--source", required=True, help="the checkout (for captures/)")
    p.add_argument("--list", action="store_true", help="only list the shell blocks and what would be done")
    p.add_argument("handouts", nargs="+")
    args = p.parse_args()
    args.bin, args.source = os.path.abspath(args.bin), os.path.abspath(args.source)
    if args.list:
        for h in args.handouts:
            blocks, _ = parse(h)
            for b in blocks:
                if b.info in ("sh", "bash", "shell"):
                    kind = " ".join(b.annotation) if b.annotation else "run"
                    print(f"{b.where:<18} {kind:<40} {b.first_line}")
        return 0
    ok = True
    for h in args.handouts:
        ok = Runner(args, h).run() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
