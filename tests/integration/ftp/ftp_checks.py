#!/usr/bin/python3
"""Real-client checks against `lab-ftp serve`, run by tests/integration/ftp/*_test.cpp.

Usage: ftp_checks.py CHECK PORT ROOT [args...]. Prints one line per step; exits 1 on the first
mismatch with a line naming it. Every network operation has a timeout; loops are bounded.
"""
import ftplib
import hashlib
import io
import os
import socket
import sys
import threading
import time

HOST = "127.0.0.1"
TIMEOUT = 20


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg, flush=True)


def sha(data):
    return hashlib.sha256(data).hexdigest()


def connect(port, user="anonymous", password="me@example.org", passive=True):
    f = ftplib.FTP()
    f.connect(HOST, port, timeout=TIMEOUT)
    f.login(user, password)
    f.set_pasv(passive)
    return f


def retr(f, name):
    buf = io.BytesIO()
    f.retrbinary("RETR " + name, buf.write)
    return buf.getvalue()


def check_ftplib(port, root, mode):
    # A named user: with --write, anonymous users may only upload new files and make folders
    # (APPE, RNFR, DELE, RMD are refused to them: tests/security/ftp_rights_test.cpp).
    passive = mode == "passive"
    f = connect(port, user="alice", password="wonderland", passive=passive)
    big = open(os.path.join(root, "big.bin"), "rb").read()
    expect(sha(retr(f, "big.bin")) == sha(big), f"{mode} RETR big.bin byte-identical ({len(big)} bytes)")
    # REST + RETR: binary files go out with sendfile(2) from the reader's position.
    tail = bytearray()
    f.retrbinary("RETR big.bin", tail.extend, rest=len(big) - 123457)
    expect(bytes(tail) == big[-123457:], f"{mode} REST + RETR sends big.bin from the offset on")
    names = f.nlst()
    expect("big.bin" in names and "pub" in names, f"{mode} NLST lists big.bin and pub")
    lines = []
    f.retrlines("LIST", lines.append)
    expect(any(l.endswith(" big.bin") for l in lines), f"{mode} LIST has big.bin")
    upload = os.urandom(3 * 1024 * 1024 + 7)
    f.storbinary(f"STOR pub/up-{mode}.bin", io.BytesIO(upload))
    stored = open(os.path.join(root, "pub", f"up-{mode}.bin"), "rb").read()
    expect(sha(stored) == sha(upload), f"{mode} STOR byte-identical on disk")
    expect(f.size(f"pub/up-{mode}.bin") == len(upload), f"{mode} SIZE matches")
    expect(f.sendcmd(f"MDTM pub/up-{mode}.bin").startswith("213 "), f"{mode} MDTM 213")
    f.storbinary(f"APPE pub/up-{mode}.bin", io.BytesIO(b"tail"))
    expect(open(os.path.join(root, "pub", f"up-{mode}.bin"), "rb").read().endswith(b"tail"), f"{mode} APPE appends")
    f.mkd(f"dir-{mode}")
    f.rename(f"pub/up-{mode}.bin", f"dir-{mode}/moved.bin")
    expect(os.path.exists(os.path.join(root, f"dir-{mode}", "moved.bin")), f"{mode} RNFR/RNTO moved the file")
    f.delete(f"dir-{mode}/moved.bin")
    f.rmd(f"dir-{mode}")
    expect(not os.path.exists(os.path.join(root, f"dir-{mode}")), f"{mode} DELE and RMD")
    # ASCII mode converts line ends on the data connection only.
    text = b"one\ntwo\n"
    f.storlines(f"STOR text-{mode}.txt", io.BytesIO(text))
    expect(open(os.path.join(root, f"text-{mode}.txt"), "rb").read() == text, f"{mode} STOR in TYPE A stores LF line ends")
    f.voidcmd("TYPE A")
    conn = f.transfercmd(f"RETR text-{mode}.txt")
    wire = b""
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        wire += chunk
    conn.close()
    f.voidresp()
    expect(wire == b"one\r\ntwo\r\n", f"{mode} RETR in TYPE A sends CRLF on the wire")
    f.cwd("pub")
    f.cwd("../../../..")
    expect(f.pwd() == "/", f"{mode} CWD ../../.. stays at /")
    try:
        f.sendcmd("RETR ../../../../etc/passwd")
        fail("traversal RETR was not refused")
    except ftplib.error_perm as e:
        expect(str(e).startswith("550") or str(e).startswith("425"), f"{mode} traversal RETR refused ({str(e)[:3]})")
    try:
        retr(f, "escape.txt")
        fail("symlink escape.txt was served")
    except ftplib.error_perm as e:
        expect(str(e).startswith("550"), f"{mode} symlink out of the root refused")
    expect("escape.txt" not in f.nlst(), f"{mode} symlink not listed")
    f.quit()


def check_concurrent(port, root, count):
    big = open(os.path.join(root, "big.bin"), "rb").read()
    want = sha(big)
    errors = []

    def worker(i):
        try:
            f = connect(port, passive=(i % 2 == 0))
            data = retr(f, "big.bin")
            if sha(data) != want:
                errors.append(f"client {i}: RETR differs")
            payload = os.urandom(512 * 1024 + i)
            f.storbinary(f"STOR pub/c{i}.bin", io.BytesIO(payload))
            if open(os.path.join(root, "pub", f"c{i}.bin"), "rb").read() != payload:
                errors.append(f"client {i}: STOR differs")
            f.quit()
        except Exception as e:  # noqa: BLE001 - report any failure of a client
            errors.append(f"client {i}: {e!r}")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    expect(not errors, f"{count} clients at once, each RETR and STOR byte-identical {errors}")


def raw_control(port):
    s = socket.create_connection((HOST, port), timeout=TIMEOUT)
    r = s.makefile("rb")

    def reply():
        line = r.readline().decode()
        code = line[:3]
        if line[3:4] == "-":
            while True:
                more = r.readline().decode()
                if more.startswith(code + " "):
                    break
        return line

    def cmd(text):
        s.sendall((text + "\r\n").encode())
        return reply()

    return s, reply, cmd


def check_bounce(port, root):
    s, reply, cmd = raw_control(port)
    expect(reply().startswith("220"), "greeting 220")
    expect(cmd("PORT 127,0,0,1,200,10").startswith("530"), "PORT before login is 530")
    cmd("USER anonymous")
    expect(cmd("PASS x").startswith("230"), "anonymous login")
    expect(cmd("PORT 127,0,0,2,200,10").startswith("504"), "PORT to 127.0.0.2 refused (bounce)")
    expect(cmd("PORT 127,0,0,1,0,25").startswith("504"), "PORT to port 25 refused")
    expect(cmd("EPRT |1|127.0.0.2|4000|").startswith("504"), "EPRT to 127.0.0.2 refused")
    expect(cmd("EPRT |1|127.0.0.1|25|").startswith("504"), "EPRT to port 25 refused")
    expect(cmd("RETR big.bin").startswith("425"), "no data channel after refused PORTs")
    expect(cmd("RNTO x").startswith("503"), "RNTO without RNFR is 503")
    expect(cmd("PASS x").startswith("503"), "PASS without USER is 503")
    expect(cmd("FOO").startswith("500"), "unknown verb 500")
    expect(cmd("TYPE X").startswith("501"), "bad TYPE 501")
    expect(cmd("MODE B").startswith("504"), "MODE B 504")
    expect(cmd("SITE CHMOD 777 x").startswith("502"), "SITE 502")
    expect(cmd("QUIT").startswith("221"), "QUIT 221")
    s.close()


def check_pasv_foreign(port, root):
    s, reply, cmd = raw_control(port)
    reply()
    cmd("USER anonymous")
    cmd("PASS x")
    cmd("TYPE I")
    line = cmd("PASV")
    nums = line[line.index("(") + 1:line.index(")")].split(",")
    data_port = int(nums[4]) * 256 + int(nums[5])
    # A connection from another local address (127.0.0.2) must be refused (RFC 2577).
    intruder = socket.socket()
    intruder.settimeout(TIMEOUT)
    intruder.bind(("127.0.0.2", 0))
    intruder.connect((HOST, data_port))
    s.sendall(b"RETR hello.txt\r\n")
    expect(reply().startswith("150"), "RETR 150")
    got = intruder.recv(100)
    expect(got == b"", "data connection from 127.0.0.2 closed without data")
    good = socket.create_connection((HOST, data_port), timeout=TIMEOUT)
    data = b""
    while True:
        chunk = good.recv(65536)
        if not chunk:
            break
        data += chunk
    expect(data == open(os.path.join(root, "hello.txt"), "rb").read(), "the client's own data connection gets the file")
    expect(reply().startswith("226"), "226 after the transfer")
    s.close()


def wait_for(predicate, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def temp_files(root):
    return [n for n in os.listdir(os.path.join(root, "pub")) if n.startswith(".netlab-upload")]


def check_abort_upload(port, root):
    f = connect(port)
    f.voidcmd("TYPE I")
    conn = f.transfercmd("STOR pub/aborted.bin")
    conn.sendall(os.urandom(1024 * 1024))
    expect(wait_for(lambda: len(temp_files(root)) == 1), "upload in progress writes a temporary file")
    resp = f.abort()  # ABOR with its last byte sent as TCP urgent data
    conn.close()
    expect(resp.startswith("426"), f"the aborted STOR is answered 426 ({resp[:3]})")
    expect(f.voidresp().startswith("226"), "then ABOR is answered 226 (RFC 959 4.1.3)")
    expect(wait_for(lambda: not temp_files(root)), "aborted upload leaves no temporary file")
    expect(not os.path.exists(os.path.join(root, "pub", "aborted.bin")), "aborted upload not stored")
    # Disconnect in the middle of an upload: nothing stored either.
    g = connect(port)
    g.voidcmd("TYPE I")
    conn = g.transfercmd("STOR pub/dropped.bin")
    conn.sendall(os.urandom(512 * 1024))
    expect(wait_for(lambda: len(temp_files(root)) == 1), "second upload in progress")
    g.sock.shutdown(socket.SHUT_RDWR)  # the control connection goes first
    g.close()
    conn.close()
    expect(wait_for(lambda: not temp_files(root)), "disconnect removes the temporary file")
    expect(not os.path.exists(os.path.join(root, "pub", "dropped.bin")), "dropped upload not stored")
    f.quit()


def check_login(port, root):
    f = ftplib.FTP()
    f.connect(HOST, port, timeout=TIMEOUT)
    try:
        f.login("alice", "wrong")
        fail("wrong password accepted")
    except ftplib.error_perm as e:
        expect(str(e).startswith("530"), "wrong password 530")
    f.login("alice", "wonderland")
    expect(True, "alice logs in with the users file password")
    f.quit()
    f = ftplib.FTP()
    f.connect(HOST, port, timeout=TIMEOUT)
    try:
        f.login("anonymous", "x")
        fail("anonymous admitted without --anonymous")
    except ftplib.error_perm as e:
        expect(str(e).startswith("530"), "anonymous refused without --anonymous")
    f.close()


def check_readonly(port, root):
    f = connect(port)
    try:
        f.storbinary("STOR x.bin", io.BytesIO(b"x"))
        fail("STOR accepted on a read-only server")
    except ftplib.error_perm as e:
        expect(str(e).startswith("550"), "STOR refused read-only (550)")
    for c in ("MKD d", "DELE hello.txt", "RNFR hello.txt"):
        try:
            f.sendcmd(c)
            fail(c + " accepted read-only")
        except ftplib.error_perm as e:
            expect(str(e).startswith("550"), c + " refused read-only")
    f.quit()


class session_reusing_ftp_tls(ftplib.FTP_TLS):
    """FTP_TLS whose data connections resume the control connection's TLS session, which the
    server requires (as vsftpd's require_ssl_reuse); ftplib's own FTP_TLS makes a new one."""

    def ntransfercmd(self, cmd, rest=None):
        conn, size = ftplib.FTP.ntransfercmd(self, cmd, rest)
        if self._prot_p:
            conn = self.context.wrap_socket(conn, server_hostname=self.host, session=self.sock.session)
        return conn, size


def check_ftps(port, root):
    import ssl
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE  # the test's self-signed certificate
    big = open(os.path.join(root, "big.bin"), "rb").read()
    for passive in (True, False):
        mode = "passive" if passive else "active"
        f = session_reusing_ftp_tls(context=ctx, timeout=TIMEOUT)
        f.connect(HOST, port)
        f.auth()
        expect(isinstance(f.sock, ssl.SSLSocket), f"{mode} AUTH TLS switched the control connection to TLS")
        f.login("anonymous", "x")
        f.prot_p()
        f.set_pasv(passive)
        expect(sha(retr(f, "big.bin")) == sha(big), f"{mode} RETR over PROT P byte-identical")
        payload = os.urandom(300000)
        f.storbinary(f"STOR pub/tls-{mode}.bin", io.BytesIO(payload))
        expect(open(os.path.join(root, "pub", f"tls-{mode}.bin"), "rb").read() == payload, f"{mode} STOR over PROT P stored")
        f.quit()


def main():
    check, port, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if check == "ftplib":
        check_ftplib(port, root, sys.argv[4])
    elif check == "concurrent":
        check_concurrent(port, root, int(sys.argv[4]))
    elif check == "bounce":
        check_bounce(port, root)
    elif check == "pasv-foreign":
        check_pasv_foreign(port, root)
    elif check == "abort-upload":
        check_abort_upload(port, root)
    elif check == "login":
        check_login(port, root)
    elif check == "ftps":
        check_ftps(port, root)
    elif check == "readonly":
        check_readonly(port, root)
    else:
        fail("unknown check " + check)


if __name__ == "__main__":
    main()
