// Issue 31, item 5: lab-smtp must not hold whole messages in memory before the final dot. 40
// unauthenticated sessions (from 40 loopback addresses) each send 10,000,000 bytes of message
// data without ending it; the server's peak resident memory (VmHWM) must stay far below what
// holding them would take (400 MB: before the fix 95 sessions of 10.4 MB took 1.24 GB). Each
// message is spooled to the Maildir's tmp/ as it arrives instead. Then one session ends its
// message (stored whole, every byte), the others vanish (their spool files are removed).
#include <cstdio>
#include <thread>

#include "load/load_env.hpp"
#include "security/raw_client.hpp"

namespace smtp_memory_test {

using namespace load_test;
using security_test::raw_client;
using namespace std::chrono_literals;

TEST(SmtpMemory, MessagesInFlightAreSpooledNotHeld) {
  raise_own_fd_limit();
  temp_dir dir("netlab-load-smtp-memory");
  write_file(dir.path / "users.txt", "alice:secret\n");
  netlab::test::process server({netlab::test::bin_path("lab-smtp"), "serve", "--maildir", (dir.path / "mail").string(),
                                "--domain", "example.org", "--users", (dir.path / "users.txt").string(), "--listen",
                                "127.0.0.1:0"});
  const int port = port_of(server.wait_listening());
  // Under ASan the peak means nothing (its quarantine): a few sessions check the spooling itself.
  const int sessions = under_asan ? 4 : scaled(40, 4);
  constexpr std::size_t line_bytes = 100;  // 98 characters and CRLF
  constexpr std::size_t lines = 100'000;   // 10,000,000 bytes per message
  std::string block;
  for (int i = 0; i < 1000; ++i) block += std::string(line_bytes - 2, static_cast<char>('a' + i % 26)) + "\r\n";
  const long before = vm_hwm_kb(server.pid());
  std::vector<std::unique_ptr<raw_client>> clients;
  std::vector<int> ready(static_cast<std::size_t>(sessions), 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < sessions; ++i) {
    clients.push_back(std::make_unique<raw_client>(port, "127.0.2." + std::to_string(i + 1)));
    threads.emplace_back([&, i] {
      raw_client& c = *clients[static_cast<std::size_t>(i)];
      if (!c.ok() || c.reply().substr(0, 3) != "220") return;
      for (const std::string cmd :
           {"EHLO sender.example", "MAIL FROM:<s@sender.example>", "RCPT TO:<alice@example.org>", "DATA"}) {
        c.send(cmd + "\r\n");
        if (c.reply().empty()) return;
      }
      for (std::size_t sent = 0; sent < lines; sent += 1000)
        if (!c.send(block)) return;
      ready[static_cast<std::size_t>(i)] = 1;
    });
  }
  for (auto& t : threads) t.join();
  int complete = 0;
  for (int r : ready) complete += r;
  // Everything sent has been read by the server once its receive queues are empty; peak memory
  // is read then (bounded wait: 30 s).
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  long peak = vm_hwm_kb(server.pid());
  for (long last = -1; peak != last && std::chrono::steady_clock::now() < deadline;) {
    last = peak;
    std::this_thread::sleep_for(500ms);
    peak = vm_hwm_kb(server.pid());
  }
  std::printf(
      "%d sessions each sent %zu bytes of one message without its end: server peak memory %ld KiB "
      "(%ld KiB before)\n",
      complete, lines * line_bytes, peak, before);
  EXPECT_EQ(complete, sessions);
  if (!under_asan) {
    EXPECT_LT(peak, 150 * 1024) << "the server holds the messages in memory";
  }
  // One message is ended: it is stored whole; the others vanish and leave nothing behind.
  clients[0]->send(".\r\n");
  const std::string stored = clients[0]->reply(60s);
  EXPECT_EQ(stored.substr(0, 3), "250") << stored;
  clients.clear();
  const fs::path new_dir = dir.path / "mail/alice/new", tmp_dir = dir.path / "mail/alice/tmp";
  for (int i = 0; i < 300 && files_in(tmp_dir) > 0; ++i) std::this_thread::sleep_for(50ms);
  EXPECT_EQ(files_in(new_dir), 1u);
  EXPECT_EQ(files_in(tmp_dir), 0u) << "spool files of vanished sessions were left behind";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(new_dir, ec)) {
    const std::string m = read_file(e.path());
    // Stored with LF line ends: each data line is 99 bytes, plus the headers the server added.
    EXPECT_GE(m.size(), lines * (line_bytes - 1));
    EXPECT_LT(m.size(), lines * (line_bytes - 1) + 2000);
  }
}

}  // namespace smtp_memory_test
