// Theory of operation: a flat map from virtual path to entry; "/" always exists. Directories are
// entries with is_directory; a directory's children are the keys with its path plus '/' as prefix
// and no further '/'. Writers buffer and replace the entry only on commit() (whole or nothing).
#include "netlib/ftp/memory_file_system.hpp"

#include <algorithm>
#include <cstring>

namespace netlib::ftp {

namespace {
class memory_reader final : public file_reader {
 public:
  explicit memory_reader(std::string data) : data_(std::move(data)) {}
  std::ptrdiff_t read(std::span<std::byte> buffer) override {
    const std::size_t n = std::min(buffer.size(), data_.size() - pos_);
    std::memcpy(buffer.data(), data_.data() + pos_, n);
    pos_ += n;
    return static_cast<std::ptrdiff_t>(n);
  }

 private:
  std::string data_;
  std::size_t pos_ = 0;
};

bool is_child(const std::string& dir, const std::string& path) {
  const std::string prefix = dir == "/" ? "/" : dir + "/";
  return path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
         path.find('/', prefix.size()) == std::string::npos;
}
}  // namespace

class memory_writer final : public file_writer {
 public:
  memory_writer(memory_file_system& fs, std::string path, std::string initial, existing_file existing)
      : fs_(fs), path_(std::move(path)), data_(std::move(initial)), existing_(existing) {}
  bool write(byte_view data) override {
    data_.append(as_chars(data));
    return true;
  }
  bool commit() override {
    if (existing_ == existing_file::keep && fs_.entries_.count(path_) != 0) return false;
    fs_.entries_[path_] = memory_file_system::entry{false, std::move(data_)};
    return true;
  }

 private:
  memory_file_system& fs_;
  std::string path_;
  std::string data_;
  existing_file existing_;
};

memory_file_system::memory_file_system(std::chrono::sys_seconds modified) : modified_(modified) {
  entries_["/"] = entry{true, {}};
}

void memory_file_system::add_directory(const std::string& path) {
  if (path == "/" || path.empty()) return;
  add_directory(parent_path(path));
  entries_[path] = entry{true, {}};
}

void memory_file_system::add_file(const std::string& path, std::string content) {
  add_directory(parent_path(path));
  entries_[path] = entry{false, std::move(content)};
}

std::string memory_file_system::content(const std::string& path) const {
  auto it = entries_.find(path);
  return it == entries_.end() ? std::string{} : it->second.data;
}

fs_status memory_file_system::check_parent(const std::string& path) const {
  auto it = entries_.find(parent_path(path));
  if (it == entries_.end()) return fs_status::not_found;
  return it->second.is_directory ? fs_status::ok : fs_status::not_a_directory;
}

fs_status memory_file_system::stat(const std::string& path, file_info& out) {
  auto it = entries_.find(path);
  if (it == entries_.end()) return fs_status::not_found;
  out = file_info{base_name(path), it->second.is_directory, it->second.data.size(), modified_};
  return fs_status::ok;
}

fs_status memory_file_system::list(const std::string& dir, std::vector<file_info>& out) {
  auto it = entries_.find(dir);
  if (it == entries_.end()) return fs_status::not_found;
  if (!it->second.is_directory) return fs_status::not_a_directory;
  out.clear();
  for (const auto& [path, e] : entries_) {
    if (is_child(dir, path)) out.push_back(file_info{base_name(path), e.is_directory, e.data.size(), modified_});
  }
  return fs_status::ok;
}

fs_status memory_file_system::make_directory(const std::string& path) {
  if (entries_.count(path)) return fs_status::exists;
  if (auto s = check_parent(path); s != fs_status::ok) return s;
  entries_[path] = entry{true, {}};
  return fs_status::ok;
}

fs_status memory_file_system::remove_directory(const std::string& path) {
  auto it = entries_.find(path);
  if (it == entries_.end()) return fs_status::not_found;
  if (!it->second.is_directory) return fs_status::not_a_directory;
  if (path == "/") return fs_status::denied;
  for (const auto& [p, e] : entries_) {
    if (is_child(path, p)) return fs_status::not_empty;
  }
  entries_.erase(it);
  return fs_status::ok;
}

fs_status memory_file_system::remove_file(const std::string& path) {
  auto it = entries_.find(path);
  if (it == entries_.end()) return fs_status::not_found;
  if (it->second.is_directory) return fs_status::is_a_directory;
  entries_.erase(it);
  return fs_status::ok;
}

fs_status memory_file_system::rename(const std::string& from, const std::string& to) {
  auto it = entries_.find(from);
  if (it == entries_.end() || from == "/") return fs_status::not_found;
  if (auto s = check_parent(to); s != fs_status::ok) return s;
  if (entries_.count(to)) return fs_status::exists;
  if (to.compare(0, from.size() + 1, from + "/") == 0) return fs_status::denied;  // into itself
  std::map<std::string, entry> moved;
  for (auto i = entries_.begin(); i != entries_.end();) {
    if (i->first == from || i->first.compare(0, from.size() + 1, from + "/") == 0) {
      moved[to + i->first.substr(from.size())] = std::move(i->second);
      i = entries_.erase(i);
    } else {
      ++i;
    }
  }
  entries_.merge(moved);
  return fs_status::ok;
}

std::unique_ptr<file_reader> memory_file_system::open_read(const std::string& path, std::uint64_t offset,
                                                           fs_status& status) {
  auto it = entries_.find(path);
  status = it == entries_.end()      ? fs_status::not_found
           : it->second.is_directory ? fs_status::is_a_directory
                                     : fs_status::ok;
  if (status != fs_status::ok) return nullptr;
  const std::string& d = it->second.data;
  return std::make_unique<memory_reader>(offset >= d.size() ? std::string{} : d.substr(offset));
}

std::unique_ptr<file_writer> memory_file_system::open_write(const std::string& path, bool append, std::uint64_t offset,
                                                            existing_file existing, fs_status& status) {
  status = check_parent(path);
  auto it = entries_.find(path);
  if (status == fs_status::ok && it != entries_.end() && it->second.is_directory) status = fs_status::is_a_directory;
  if (status != fs_status::ok) return nullptr;
  std::string initial;
  if (it != entries_.end()) {
    initial =
        append ? it->second.data : it->second.data.substr(0, std::min<std::uint64_t>(offset, it->second.data.size()));
  }
  return std::make_unique<memory_writer>(*this, path, std::move(initial), existing);
}

}  // namespace netlib::ftp
