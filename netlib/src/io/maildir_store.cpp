// Theory of operation: see maildir_store.hpp. Unique names follow the Maildir convention
// "<seconds>.M<microseconds>P<pid>Q<counter>.<host>,S=<size>": the counter is per process and
// atomic, so two deliveries never share a tmp/ name; O_EXCL makes sure. A message is stored with
// CRLF line ends exactly as the SMTP core passes it, so its size for POP3 is the file size when
// the name carries S=; other files are read and measured.
#include "netlib/io/maildir_store.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "netlib/io/asio.hpp"
#include "netlib/mail/message_text.hpp"
#include "netlib/mail/users_table.hpp"

namespace netlib::io {
namespace fs = std::filesystem;
namespace {

std::atomic<unsigned long> delivery_counter{0};

std::string host_name() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string h(buf);
  for (char& c : h)
    if (c == '/' || c == ':' || c == ',') c = '_';  // Maildir: no '/' or ':' in names
  return h.empty() ? "localhost" : h;
}

std::string unique_name(std::size_t size) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now);
  const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(now - secs);
  return fmt::format("{}.M{:06}P{}Q{}.{},S={}", secs.count(), usec.count(), getpid(), ++delivery_counter, host_name(), size);
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool fsync_dir(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

std::optional<std::string> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// An open maildrop: the flock is held until destruction.
class maildir_mailbox : public mail::mailbox {
 public:
  maildir_mailbox(int lock_fd, std::vector<fs::path> files) : lock_fd_(lock_fd), files_(std::move(files)) {
    for (const auto& f : files_) {
      const std::string name = f.filename().string();
      const auto s = name.find(",S=");
      std::size_t size = 0;
      const bool ours = s != std::string::npos && std::sscanf(name.c_str() + s + 3, "%zu", &size) == 1;
      if (!ours) size = mail::crlf_size(read_file(f).value_or(""));
      infos_.push_back({maildir_store::uid_of(name), size});
    }
  }
  ~maildir_mailbox() override { ::close(lock_fd_); }
  maildir_mailbox(const maildir_mailbox&) = delete;
  maildir_mailbox& operator=(const maildir_mailbox&) = delete;

  [[nodiscard]] const std::vector<mail::message_info>& messages() const override { return infos_; }
  [[nodiscard]] std::optional<std::string> read(std::size_t index) override {
    if (index >= files_.size()) return std::nullopt;
    return read_file(files_[index]);
  }
  std::size_t remove(std::span<const std::size_t> indices) override {
    std::size_t failed = 0;
    for (std::size_t i : indices) {
      std::error_code ec;
      if (i >= files_.size() || (!fs::remove(files_[i], ec) && ec)) ++failed;
    }
    return failed;
  }

 private:
  int lock_fd_;
  std::vector<fs::path> files_;
  std::vector<mail::message_info> infos_;
};

bool make_maildir(const fs::path& dir) {
  std::error_code ec;
  for (const char* sub : {"tmp", "new", "cur"}) {
    fs::create_directories(dir / sub, ec);
    if (ec) return false;
  }
  return true;
}

}  // namespace

maildir_store::maildir_store(fs::path root) : root_(std::move(root)) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec || !fs::is_directory(root_))
    throw io_error("cannot create the mail folder '" + root_.string() + "': " + (ec ? ec.message() : "not a directory"));
}

std::string maildir_store::uid_of(const std::string& file_name) {
  std::string uid = file_name.substr(0, file_name.find_first_of(":,"));
  const bool printable = std::all_of(uid.begin(), uid.end(), [](char c) { return c > 0x20 && c < 0x7f; });
  if (!uid.empty() && uid.size() <= 70 && printable) return uid;  // RFC 1939 §7
  std::uint64_t h = 14695981039346656037ULL;  // FNV-1a of the whole unique part
  for (unsigned char c : uid) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("h{:016x}", h);
}

bool maildir_store::ensure_mailbox(std::string_view user) {
  return mail::users_table::valid_name(user) && make_maildir(root_ / std::string(user));
}

bool maildir_store::store_in(const fs::path& maildir, std::string_view message) {
  const std::string name = unique_name(message.size());
  const fs::path tmp = maildir / "tmp" / name;
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  bool ok = write_all(fd, message) && ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  if (ok) ok = ::rename(tmp.c_str(), (maildir / "new" / name).c_str()) == 0;
  if (!ok) {
    ::unlink(tmp.c_str());
    return false;
  }
  return fsync_dir(maildir / "new");
}

bool maildir_store::deliver(std::string_view user, std::string_view message) {
  if (!ensure_mailbox(user)) return false;
  return store_in(root_ / std::string(user), message);
}

bool maildir_store::queue_relay(std::string_view sender, std::span<const std::string> recipients,
                                std::string_view message) {
  if (!make_maildir(root_ / ".relay")) return false;
  std::string envelope = fmt::format("X-Netlab-Envelope-From: <{}>\r\n", sender);
  for (const auto& r : recipients) envelope += fmt::format("X-Netlab-Envelope-To: <{}>\r\n", r);
  return store_in(root_ / ".relay", envelope + std::string(message));
}

mail::open_result maildir_store::open(std::string_view user) {
  if (!ensure_mailbox(user)) return {mail::open_status::failed, nullptr};
  const fs::path box = root_ / std::string(user);
  const int fd = ::open((box / ".pop3.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return {mail::open_status::failed, nullptr};
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return {mail::open_status::locked, nullptr};
  }
  std::vector<std::pair<fs::file_time_type, fs::path>> found;
  std::error_code ec;
  for (const char* sub : {"new", "cur"}) {
    for (const auto& e : fs::directory_iterator(box / sub, ec)) {
      if (!e.is_regular_file() || e.path().filename().string().front() == '.') continue;
      found.emplace_back(e.last_write_time(ec), e.path());
    }
  }
  std::sort(found.begin(), found.end());  // delivery order: time, then name
  std::vector<fs::path> files;
  for (auto& [t, p] : found) files.push_back(std::move(p));
  return {mail::open_status::opened, std::make_unique<maildir_mailbox>(fd, std::move(files))};
}

}  // namespace netlib::io
