#include "frame_source.hpp"

#include <algorithm>
#include <utility>

namespace netlab::lab_switch {

frame_source::frame_source(const std::vector<std::string>& interface_files, const std::vector<port_file>& port_files) {
  for (const auto& path : interface_files) {
    sources_.push_back(source{netlib::capture::capture_reader::open(path), std::nullopt, std::nullopt});
  }
  for (const auto& pf : port_files) {
    sources_.push_back(source{netlib::capture::capture_reader::open(pf.path), pf.port, std::nullopt});
  }
  for (auto& s : sources_) {
    advance(s);
    const std::size_t ports = s.port ? *s.port + 1U : s.reader.interfaces().size();
    port_count_ = std::max(port_count_, ports);
  }
}

netlib::l2::port_id frame_source::port_of(const source& s, const netlib::capture::packet_record& rec) {
  return s.port ? *s.port : static_cast<netlib::l2::port_id>(std::min<std::uint32_t>(rec.interface_id, 0xffff));
}

void frame_source::advance(source& s) {
  auto rec = s.reader.next();
  if (!rec) {
    s.head.reset();
    return;
  }
  s.head = input_frame{rec->ts, port_of(s, *rec), rec->link, rec->data};
}

std::optional<input_frame> frame_source::next() {
  if (sources_.size() == 1) {  // one file: its frames as they come, nothing to merge or keep aside
    source& s = sources_.front();
    if (returned_ == nullptr) {  // the first frame, read by the constructor
      returned_ = &s;
      return s.head;
    }
    auto rec = s.reader.next();
    if (!rec) return std::nullopt;
    return input_frame{rec->ts, port_of(s, *rec), rec->link, rec->data};
  }
  if (returned_ != nullptr) advance(*std::exchange(returned_, nullptr));  // its bytes are no longer in use
  source* best = nullptr;
  for (auto& s : sources_) {
    if (s.head && (best == nullptr || s.head->ts < best->head->ts)) best = &s;
  }
  if (best == nullptr) return std::nullopt;
  returned_ = best;
  return best->head;
}

std::uint64_t frame_source::truncated_records() const {
  std::uint64_t n = 0;
  for (const auto& s : sources_) n += s.reader.truncated_records();
  return n;
}

}  // namespace netlab::lab_switch
