// Theory of operation: see maildir_store.hpp. Unique names follow the Maildir convention
// "<seconds>.M<microseconds>P<pid>Q<counter>.<host>,S=<size>,W=<size with CRLF>": the counter is
// per process and atomic, so two deliveries never share a tmp/ name; O_EXCL makes sure. A message
// comes in with CRLF line ends (as SMTP carries it) and is stored with LF line ends, the Maildir
// convention of qmail, Dovecot and mutt, so local mail readers see no '\r'. S= is the file size,
// W= the size with CRLF line ends (Dovecot's names), which is what POP3 counts (RFC 1939 §11):
// a file whose name has no W= (another program's, or one stored with CRLF line ends by an older
// netlab) is read and measured when the maildrop is opened. Files are never rewritten: CRLF and
// LF files are both served, since POP3 sends every line end as CRLF either way.
//
// write_batch (group commit), in four phases so that a file reaches new/ only once its data is
// on disk, and success is reported only once its name in new/ is on disk too:
//   1. each file: its mailbox is made if needed, tmp/<unique> created O_EXCL and written;
//   2. one data flush for the whole batch: fdatasync for a single file, else syncfs on the file
//      system (its error counter is sampled before phase 1, so a writeback error of any file
//      written since fails the batch: we cannot tell whose data was lost);
//   3. each file renamed into new/ (atomic: a reader sees it whole or not at all);
//   4. each new/ folder flushed: fsync of the folder when there is one, syncfs when several.
// A file that fails is unlinked from tmp/ (or, after a failed phase 4, from new/), and so are the
// other files of its group (the other copies of the same message) before they reach new/ (or,
// when a rename of phase 3 failed, right after), so a failure leaves nothing to be delivered
// twice when the client retries after its 451.
// Files are reached through the disk root: a file of a batch holds the descriptors of its
// mailbox's tmp/ and new/ folders and acts with openat/renameat/unlinkat on its name in them.
#include "netlib/io/maildir_store.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "netlib/core/users_table.hpp"
#include "netlib/io/asio.hpp"
#include "netlib/mail/message_text.hpp"

namespace netlib::io {
namespace fs = std::filesystem;
namespace {

std::atomic<unsigned long> delivery_counter{0};

std::string host_name_uncached() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return "localhost";
  std::string h(buf);
  for (char& c : h)
    if (c == '/' || c == ':' || c == ',') c = '_';  // Maildir: no '/' or ':' in names
  return h.empty() ? "localhost" : h;
}

const std::string& host_name() {
  static const std::string name = host_name_uncached();
  return name;
}

std::string unique_name(std::size_t size, std::size_t crlf_size) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now);
  const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(now - secs);
  return fmt::format("{}.M{:06}P{}Q{}.{},S={},W={}", secs.count(), usec.count(), getpid(), ++delivery_counter,
                     host_name(), size, crlf_size);
}

// The size a file name states with ",W=<n>" (before any ":2," flags), if it does.
std::optional<std::size_t> crlf_size_in_name(const std::string& name) {
  const auto w = name.find(",W=");
  if (w == std::string::npos || w > name.find(':')) return std::nullopt;
  std::size_t size = 0;
  const char* first = name.c_str() + w + 3;
  const auto [end, ec] = std::from_chars(first, name.c_str() + name.size(), size);
  if (ec != std::errc{} || end == first) return std::nullopt;
  return size;
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// 0 or the errno of a failed open/fsync of a folder.
int fsync_dir(const disk_root& disk, const std::string& dir) {
  const auto d = disk.open(dir, O_RDONLY | O_DIRECTORY);
  if (!d.fd) return d.error;
  return ::fsync(d.fd.get()) == 0 ? 0 : errno;
}

// 0 or the errno of a failed syncfs on the file system of `fd` (errors since `fd` was opened).
int sync_file_system(int fd) {
  return ::syncfs(fd) == 0 ? 0 : errno;
}

// A file of a batch on its way through the phases of write_batch.
struct batch_entry {
  maildir_store::batch_file* file;
  std::string mailbox;
  std::string name;            // in new/
  unique_fd tmp_dir, new_dir;  // the mailbox's tmp/ and new/
  unique_fd fd;
  std::string tmp_name;  // in tmp/: `name`, or a spool's own name
  enum class where { tmp, fresh };
  void fail(int err, where leftover) {
    fd.reset();
    if (leftover == where::tmp)
      ::unlinkat(tmp_dir.get(), (tmp_name.empty() ? name : tmp_name).c_str(), 0);
    else
      ::unlinkat(new_dir.get(), name.c_str(), 0);
    file->error = err != 0 ? err : EIO;
  }
};

// Copies the bytes of `from` between `offset` and `end` to the end of `to`; false on an error.
bool copy_range(int from, std::size_t offset, std::size_t end, int to) {
  char buf[65536];
  while (offset < end) {
    const ssize_t n = ::pread(from, buf, std::min(sizeof buf, end - offset), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    if (!write_all(to, std::string_view(buf, static_cast<std::size_t>(n)))) return false;
    offset += static_cast<std::size_t>(n);
  }
  return true;
}

// Fails every file whose group has a failed file; `in_new`: the failed files were renamed already.
void fail_broken_groups(std::vector<batch_entry>& entries, std::span<const maildir_store::batch_file> files,
                        bool in_new) {
  std::vector<int> group_error;
  for (const auto& f : files) {
    if (f.group >= group_error.size()) group_error.resize(f.group + 1, 0);
    if (f.error != 0 && group_error[f.group] == 0) group_error[f.group] = f.error;
  }
  for (auto& e : entries)
    if (e.file->error == 0 && group_error[e.file->group] != 0)
      e.fail(group_error[e.file->group], in_new ? batch_entry::where::fresh : batch_entry::where::tmp);
}

// Phase 4 of write_batch: the names in new/ made durable; when that fails they are taken out.
void flush_new_folders(std::vector<batch_entry>& entries, const disk_root& disk, int root_fd) {
  std::vector<std::string> folders;
  for (const auto& e : entries)
    if (e.file->error == 0 && std::find(folders.begin(), folders.end(), e.mailbox) == folders.end())
      folders.push_back(e.mailbox);
  if (folders.empty()) return;
  const int err = folders.size() == 1 ? fsync_dir(disk, folders.front() + "/new") : sync_file_system(root_fd);
  if (err == 0) return;
  for (auto& e : entries)
    if (e.file->error == 0) e.fail(err, batch_entry::where::fresh);
}

// A whole file `name` of the folder `dir` (not a link).
std::optional<std::string> read_file(int dir, const std::string& name) {
  const unique_fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) return out;
    out.append(buf, static_cast<std::size_t>(n));
  }
}

// One message file of an open maildrop: its folder (new/ or cur/) and name.
struct maildrop_file {
  int dir;
  std::string name;
};

// An open maildrop: the flock is held until destruction.
class maildir_mailbox : public mail::mailbox {
 public:
  maildir_mailbox(unique_fd lock, unique_fd new_dir, unique_fd cur_dir, std::vector<maildrop_file> files)
      : lock_(std::move(lock)), new_dir_(std::move(new_dir)), cur_dir_(std::move(cur_dir)), files_(std::move(files)) {
    for (const auto& f : files_) {
      const std::string& name = f.name;
      const auto stated = crlf_size_in_name(name);
      const std::size_t size = stated ? *stated : mail::crlf_size(read_file(f.dir, name).value_or(""));
      infos_.push_back({maildir_store::uid_of(name), size});
    }
  }
  maildir_mailbox(const maildir_mailbox&) = delete;
  maildir_mailbox& operator=(const maildir_mailbox&) = delete;

  [[nodiscard]] const std::vector<mail::message_info>& messages() const override { return infos_; }
  [[nodiscard]] std::optional<std::string> read(std::size_t index) override {
    if (index >= files_.size()) return std::nullopt;
    return read_file(files_[index].dir, files_[index].name);
  }
  std::size_t remove(std::span<const std::size_t> indices) override {
    std::size_t failed = 0;
    for (std::size_t i : indices)
      if (i >= files_.size() || (::unlinkat(files_[i].dir, files_[i].name.c_str(), 0) != 0 && errno != ENOENT))
        ++failed;
    return failed;
  }

 private:
  unique_fd lock_;  // holds the flock
  unique_fd new_dir_, cur_dir_;
  std::vector<maildrop_file> files_;
  std::vector<mail::message_info> infos_;
};

// 0 or the errno of the failure to create MAILBOX/{tmp,new,cur} under the disk root.
int make_maildir(const disk_root& disk, const std::string& mailbox) {
  for (const char* sub : {"", "/tmp", "/new", "/cur"}) {
    std::string name;
    const auto parent = disk.open_parent(mailbox + sub, name);
    if (!parent.fd) return parent.error;
    if (::mkdirat(parent.fd.get(), name.c_str(), 0777) != 0 && errno != EEXIST) return errno;
  }
  return 0;
}

// The mail folder, created if needed (before the disk root opens it).
fs::path created(fs::path root) {
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec || !fs::is_directory(root))
    throw io_error("cannot create the mail folder '" + root.string() + "': " + (ec ? ec.message() : "not a directory"));
  return root;
}

}  // namespace

maildir_store::maildir_store(fs::path root) : root_(created(std::move(root))), disk_(root_.string()) {}

std::string maildir_store::uid_of(const std::string& file_name) {
  std::string uid = file_name.substr(0, file_name.find_first_of(":,"));
  const bool printable = std::all_of(uid.begin(), uid.end(), [](char c) { return c > 0x20 && c < 0x7f; });
  if (!uid.empty() && uid.size() <= 70 && printable) return uid;  // RFC 1939 §7
  std::uint64_t h = 14695981039346656037ULL;                      // FNV-1a of the whole unique part
  for (unsigned char c : uid) h = (h ^ c) * 1099511628211ULL;
  return fmt::format("h{:016x}", h);
}

bool maildir_store::ensure_mailbox(std::string_view user) {
  return users_table::valid_name(user) && make_maildir(disk_, std::string(user)) == 0;
}

int maildir_store::prepare_mailbox(const std::string& mailbox) {
  if (mailbox != relay_mailbox && !users_table::valid_name(mailbox)) return EINVAL;
  return make_maildir(disk_, mailbox);
}

void maildir_store::write_batch(std::span<batch_file> files) {
  // The error counter of the file system is sampled here (syncfs reports errors since open).
  const auto root = disk_.open("", O_RDONLY | O_DIRECTORY);
  std::vector<batch_entry> entries;
  for (auto& f : files) {  // phase 1: tmp/ files written, not yet flushed
    f.error = !root.fd ? root.error : prepare_mailbox(f.mailbox);
    if (f.error != 0) continue;
    const auto* body = f.body;
    if (body != nullptr && body->error() != 0) {
      f.error = body->error();
      continue;
    }
    if (body != nullptr && body->mailbox() == f.mailbox) {  // the spool file itself is delivered
      batch_entry e{&f,
                    f.mailbox,
                    unique_name(body->size, body->crlf_size),
                    unique_fd(::dup(body->tmp_dir())),
                    unique_fd(::dup(body->new_dir())),
                    unique_fd(::dup(body->fd())),
                    body->name()};
      if (!e.tmp_dir || !e.new_dir || !e.fd) {
        f.error = errno;
        continue;
      }
      entries.push_back(std::move(e));
      continue;
    }
    const std::string stored = mail::to_lf(f.bytes);
    const std::size_t shared = body != nullptr ? body->size - body->own_size : 0;
    const std::size_t shared_crlf = body != nullptr ? body->crlf_size - body->own_crlf_size : 0;
    batch_entry e{&f, f.mailbox, unique_name(stored.size() + shared, mail::crlf_size(stored) + shared_crlf), {}, {},
                  {}, {}};
    auto tmp_dir = disk_.open(f.mailbox + "/tmp", O_PATH | O_DIRECTORY);
    auto new_dir = disk_.open(f.mailbox + "/new", O_PATH | O_DIRECTORY);
    if (!tmp_dir.fd || !new_dir.fd) {
      f.error = !tmp_dir.fd ? tmp_dir.error : new_dir.error;
      continue;
    }
    e.tmp_dir = std::move(tmp_dir.fd);
    e.new_dir = std::move(new_dir.fd);
    e.fd.reset(::openat(e.tmp_dir.get(), e.name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
    if (!e.fd) {
      f.error = errno;
      continue;
    }
    if (!write_all(e.fd.get(), stored) ||
        (body != nullptr && !copy_range(body->fd(), body->own_size, body->size, e.fd.get()))) {
      e.fail(errno, batch_entry::where::tmp);
      continue;
    }
    entries.push_back(std::move(e));
  }
  // Phase 2: one data flush (RFC 5321 §6.1: nothing is acknowledged before it is safe).
  const int flushed = entries.size() == 1 ? (::fdatasync(entries.front().fd.get()) == 0 ? 0 : errno)
                      : entries.empty()   ? 0
                                          : sync_file_system(root.fd.get());
  for (auto& e : entries) {
    if (e.file->error != 0) continue;
    const int closed = ::close(e.fd.release()) == 0 ? 0 : errno;
    if (flushed != 0 || closed != 0) e.fail(flushed != 0 ? flushed : closed, batch_entry::where::tmp);
  }
  fail_broken_groups(entries, files, false);
  for (auto& e : entries)  // phase 3
    if (e.file->error == 0 && ::renameat(e.tmp_dir.get(), (e.tmp_name.empty() ? e.name : e.tmp_name).c_str(),
                                         e.new_dir.get(), e.name.c_str()) != 0)
      e.fail(errno, batch_entry::where::tmp);
  fail_broken_groups(entries, files, true);
  flush_new_folders(entries, disk_, root.fd.get());  // phase 4
}

std::string maildir_store::relay_file(std::string_view sender, std::span<const std::string> recipients,
                                      std::string_view message) {
  std::string file = fmt::format("X-Netlab-Envelope-From: <{}>\r\n", sender);
  for (const auto& r : recipients) file += fmt::format("X-Netlab-Envelope-To: <{}>\r\n", r);
  return file.append(message);
}

bool maildir_store::deliver(std::string_view user, std::string_view message) {
  batch_file f{std::string(user), message};
  write_batch(std::span(&f, 1));
  return f.error == 0;
}

bool maildir_store::queue_relay(std::string_view sender, std::span<const std::string> recipients,
                                std::string_view message) {
  const std::string bytes = relay_file(sender, recipients, message);
  batch_file f{std::string(relay_mailbox), bytes};
  write_batch(std::span(&f, 1));
  return f.error == 0;
}

std::shared_ptr<maildir_store::spool> maildir_store::begin_spool(const std::string& mailbox,
                                                                 std::string_view own_header, std::string_view shared,
                                                                 int& error) {
  error = prepare_mailbox(mailbox);
  if (error != 0) return nullptr;
  auto tmp_dir = disk_.open(mailbox + "/tmp", O_PATH | O_DIRECTORY);
  auto new_dir = disk_.open(mailbox + "/new", O_PATH | O_DIRECTORY);
  if (!tmp_dir.fd || !new_dir.fd) {
    error = !tmp_dir.fd ? tmp_dir.error : new_dir.error;
    return nullptr;
  }
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto secs = std::chrono::duration_cast<std::chrono::seconds>(now);
  const auto usec = std::chrono::duration_cast<std::chrono::microseconds>(now - secs);
  std::string name =
      fmt::format("{}.M{:06}P{}Q{}.{}", secs.count(), usec.count(), getpid(), ++delivery_counter, host_name());
  unique_fd fd(::openat(tmp_dir.fd.get(), name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) {
    error = errno;
    return nullptr;
  }
  auto s =
      std::make_shared<spool>(mailbox, std::move(tmp_dir.fd), std::move(new_dir.fd), std::move(fd), std::move(name));
  const bool written = s->append(own_header);
  s->own_size = s->size;
  s->own_crlf_size = s->crlf_size;
  if (!written || !s->append(shared)) {
    error = s->error();
    return nullptr;  // removed from tmp/ as it goes
  }
  return s;
}

maildir_store::spool::spool(std::string mailbox, unique_fd tmp_dir, unique_fd new_dir, unique_fd fd, std::string name)
    : mailbox_(std::move(mailbox)),
      tmp_dir_(std::move(tmp_dir)),
      new_dir_(std::move(new_dir)),
      fd_(std::move(fd)),
      name_(std::move(name)) {}

maildir_store::spool::~spool() {
  ::unlinkat(tmp_dir_.get(), name_.c_str(), 0);
}  // ENOENT once delivered

bool maildir_store::spool::append(std::string_view crlf_lines) {
  if (error_ != 0) return false;
  const std::string stored = mail::to_lf(crlf_lines);
  if (!write_all(fd_.get(), stored)) {
    error_ = errno != 0 ? errno : EIO;
    return false;
  }
  size += stored.size();
  crlf_size += mail::crlf_size(stored);
  return true;
}

mail::open_result maildir_store::open(std::string_view user) {
  if (!ensure_mailbox(user)) return {mail::open_status::failed, nullptr};
  const std::string box(user);
  auto lock = disk_.open(box + "/.pop3.lock", O_RDWR | O_CREAT, 0600);
  if (!lock.fd) return {mail::open_status::failed, nullptr};
  if (::flock(lock.fd.get(), LOCK_EX | LOCK_NB) != 0) return {mail::open_status::locked, nullptr};
  auto new_dir = disk_.open(box + "/new", O_RDONLY | O_DIRECTORY);
  auto cur_dir = disk_.open(box + "/cur", O_RDONLY | O_DIRECTORY);
  if (!new_dir.fd || !cur_dir.fd) return {mail::open_status::failed, nullptr};
  struct found_file {
    std::pair<std::int64_t, std::int64_t> mtime;
    std::string name;
    int dir;
    bool operator<(const found_file& o) const { return std::tie(mtime, name) < std::tie(o.mtime, o.name); }
  };
  std::vector<found_file> found;
  for (const int dir : {new_dir.fd.get(), cur_dir.fd.get()}) {
    const int listing = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
    if (d == nullptr) {
      if (listing >= 0) ::close(listing);
      continue;
    }
    while (const dirent* e = ::readdir(d)) {
      struct stat st {};
      if (e->d_name[0] == '.' || ::fstatat(dir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
          has_other_names(st))  // a hard link: its other names may be anywhere (disk_root.hpp)
        continue;
      found.push_back({{st.st_mtim.tv_sec, st.st_mtim.tv_nsec}, e->d_name, dir});
    }
    ::closedir(d);
  }
  std::sort(found.begin(), found.end());  // delivery order: time, then name
  std::vector<maildrop_file> files;
  for (auto& f : found) files.push_back({f.dir, std::move(f.name)});
  return {mail::open_status::opened, std::make_unique<maildir_mailbox>(std::move(lock.fd), std::move(new_dir.fd),
                                                                       std::move(cur_dir.fd), std::move(files))};
}

}  // namespace netlib::io
