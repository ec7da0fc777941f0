// lab-smtp serve under many concurrent Python smtplib senders: every accepted message lands
// exactly once in new/, byte-identical after the Received: header (group commit batches them);
// a broken mailbox gets 451 for its own messages only, and nothing is lost or stored twice.
#include <csignal>

#include <nlohmann/json.hpp>

#include "integration/mail/mail_env.hpp"

namespace {

using namespace mail_test;

// argv: port senders messages_per_sender maildir. Every sender opens one connection and sends
// its messages one after another (alternately to alice, bob, and both); then every file of
// alice/new and bob/new is matched against what was sent.
const char* concurrent_senders = R"PY(
import os, smtplib, sys, threading
port, senders, per, maildir = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
targets = [["alice@example.org"], ["bob@example.org"], ["alice@example.org", "bob@example.org"]]
expected = {"alice": [], "bob": []}
errors, lock = [], threading.Lock()
def sender(k):
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=20) as c:
            for i in range(per):
                to = targets[(k + i) % 3]
                body = (f"Message-ID: <{k}.{i}@netlab.test>\r\nSubject: m {k} {i}\r\n\r\n"
                        f".a dot line {k}\r\n{'x' * (k * 37 % 900)}\r\n{os.urandom(24).hex()}\r\n").encode()
                c.sendmail("sender@other.org", to, body)
                with lock:
                    for rcpt in to: expected[rcpt.split("@")[0]].append(body)
    except Exception as e:
        with lock: errors.append(repr(e))
threads = [threading.Thread(target=sender, args=(k,)) for k in range(senders)]
for t in threads: t.start()
for t in threads: t.join(60)
print("errors", errors[:3])
for user in ("alice", "bob"):
    stored = []
    for name in os.listdir(os.path.join(maildir, user, "new")):
        data = open(os.path.join(maildir, user, "new", name), "rb").read()
        if b"\r" in data:  # stored with LF line ends: a CR makes the comparison fail
            stored.append(b"CR in " + name.encode())
            continue
        data = data.replace(b"\n", b"\r\n")  # as sent, with CRLF
        head, _, rest = data.partition(b"\r\nMessage-ID: ")  # drop Return-Path, Delivered-To, Received:
        stored.append(b"Message-ID: " + rest if head.startswith(b"Return-Path: ") else data)
    same = sorted(stored) == sorted(expected[user])
    print(user, len(expected[user]), "sent", len(stored), "stored", "identical" if same else "DIFFERENT",
          "tmp", len(os.listdir(os.path.join(maildir, user, "tmp"))))
)PY";

struct group_commit_case {
  const char* name;
  std::vector<std::string> server_args;
};

class SmtpGroupCommit : public ::testing::TestWithParam<group_commit_case> {};

TEST_P(SmtpGroupCommit, ConcurrentSendersEveryMessageStoredOnceByteIdentical) {
  mail_env env;
  auto args = GetParam().server_args;
  // The 24 senders all come from 127.0.0.1: no per-address cap (20 by default; ConnectionCaps tests it).
  args.insert(args.end(), {"--json", "--max-per-address", "0"});
  auto server = env.start_smtp(args);
  // With --json the listening line is on stderr: stdout holds the JSON document alone.
  const auto listening = server->wait_for_err_line("listening on ");
  ASSERT_TRUE(listening) << server->err();
  const std::string addr = listening->substr(std::string("listening on ").size());
  // 24 senders x 6 messages: 144 messages, 192 copies (a third go to both users).
  const auto r = python(concurrent_senders, {port_string(addr), "24", "6", env.maildir.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "errors []\nalice 96 sent 96 stored identical tmp 0\nbob 96 sent 96 stored identical tmp 0\n");
  server->signal(SIGTERM);
  EXPECT_EQ(server->wait(), 0);
  const auto doc = nlohmann::json::parse(server->out(), nullptr, false);
  ASSERT_TRUE(doc.is_object()) << "stdout is not one JSON document:\n" << server->out();
  EXPECT_EQ(doc.value("messages_stored", -1), 144) << doc.dump();
  EXPECT_GE(doc.value("delivery_batches", 0), 1) << doc.dump();
  EXPECT_EQ(server->err().find("listening on "), 0U) << server->err();
}

INSTANTIATE_TEST_SUITE_P(
    ThreadModels, SmtpGroupCommit,
    ::testing::Values(group_commit_case{"OneThread", {}},
                      group_commit_case{"FourThreadsPool", {"--threads", "4", "--thread-model", "pool"}},
                      group_commit_case{"FourThreadsLoops", {"--threads", "4", "--thread-model", "loops"}}),
    [](const auto& test_case) { return std::string(test_case.param.name); });

// argv: port maildir. Alice's Maildir is broken (a file stands in its place): her messages get
// 451 while bob's, sent at the same time, get 250; a message for both gets 451 and bob keeps no
// copy of it. Then the mailbox is repaired and the client retries: each message is stored once.
const char* broken_mailbox_client = R"PY(
import os, smtplib, sys, threading
port, maildir = int(sys.argv[1]), sys.argv[2]
def send(to, body):
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=20) as c:
            c.sendmail("sender@other.org", to, body)
        return 250
    except smtplib.SMTPDataError as e:
        return e.smtp_code
    except smtplib.SMTPRecipientsRefused as e:
        return "refused"
jobs = [(["alice@example.org"], b"Subject: a\r\n\r\nfor alice\r\n"),
        (["bob@example.org"], b"Subject: b\r\n\r\nfor bob\r\n"),
        (["alice@example.org", "bob@example.org"], b"Subject: ab\r\n\r\nfor both\r\n")]
codes = [None] * len(jobs)
def run(i): codes[i] = send(*jobs[i])
threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
for t in threads: t.start()
for t in threads: t.join(30)
print("first", codes)
print("bob", len(os.listdir(os.path.join(maildir, "bob", "new"))))
os.remove(os.path.join(maildir, "alice"))  # repaired; the client retries what got 451
print("retry", [send(*jobs[i]) for i in range(len(jobs)) if codes[i] != 250])
for user in ("alice", "bob"):
    files = sorted(open(os.path.join(maildir, user, "new", n), "rb").read().replace(b"\n", b"\r\n").split(b"\r\n\r\n", 1)[1]
                   for n in os.listdir(os.path.join(maildir, user, "new")))
    print(user, files, "tmp", len(os.listdir(os.path.join(maildir, user, "tmp"))))
)PY";

TEST(SmtpGroupCommitFailure, BrokenMailboxGets451ForItsMessagesOnlyAndLosesNothing) {
  mail_env env;
  fs::create_directories(env.maildir);
  std::ofstream(env.maildir / "alice") << "not a Maildir";
  auto server = env.start_smtp({"--threads", "2"});
  const std::string addr = server->wait_listening();
  const auto r = python(broken_mailbox_client, {port_string(addr), env.maildir.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "first [451, 250, 451]\n"
            "bob 1\n"
            "retry [250, 250]\n"
            "alice [b'for alice\\r\\n', b'for both\\r\\n'] tmp 0\n"
            "bob [b'for bob\\r\\n', b'for both\\r\\n'] tmp 0\n");
}

}  // namespace
