// Capture benchmark: a synthetic pcapng of N small TCP frames (70 B) on 4 interfaces (ports),
// written to a fresh temporary directory and removed at the end, then, over the same file in the
// same run:
//   bare      a bare libpcap loop (pcap_open_offline + pcap_next_ex), the reference
//   decode    netlib's capture driver, replay_tcp: reader + packet decoding + TCP reassembly, bytes
//             delivered to a visitor (what every capture analyzer runs)
//   switch    netlib's reader + the learning switch core on every frame, in this process
//   replay    `lab-switch replay FILE --summary --json` run as a child process: the CLI's own path
//             (frame source, switch, counters), timed from spawn to exit; its decision counts must
//             equal the in-process switch's
// Prints frames/s and GB/s (captured bytes; for decode also the reassembled TCP payload) with each
// as a ratio to the bare loop, and one JSON line each.
//   bench_capture [FRAMES=10000000] [LAB_SWITCH=<this binary's directory>/lab-switch]
#include <pcap/pcap.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "netlib/capture/capture_reader.hpp"
#include "netlib/capture/capture_writer.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/l2/learning_switch.hpp"
#include "netlib/packet/packet_decoder.hpp"
#include "netlib/packet/tcp_reassembler.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

// Ethernet + IPv4 + TCP + 16 payload bytes; flows between 64 hosts, 4 per port.
std::vector<std::byte> frame(std::uint32_t flow, std::uint32_t seq, bool reply) {
  std::vector<std::uint8_t> f(14 + 20 + 20 + 16, 0);
  const std::uint8_t a = static_cast<std::uint8_t>(flow % 64), b = static_cast<std::uint8_t>((flow * 7 + 1) % 64);
  const std::uint8_t src = reply ? b : a, dst = reply ? a : b;
  const std::uint8_t dmac[6] = {2, 0, 0, 0, 0, dst}, smac[6] = {2, 0, 0, 0, 0, src};
  std::copy(dmac, dmac + 6, f.begin());
  std::copy(smac, smac + 6, f.begin() + 6);
  f[12] = 0x08;
  std::uint8_t* ip = f.data() + 14;
  ip[0] = 0x45;
  ip[3] = 20 + 20 + 16;
  ip[8] = 64;
  ip[9] = 6;
  ip[12] = 10, ip[15] = src;
  ip[16] = 10, ip[19] = dst;
  std::uint8_t* tcp = ip + 20;
  const std::uint16_t cport = static_cast<std::uint16_t>(10000 + flow), sport = 80;
  const std::uint16_t sp = reply ? sport : cport, dp = reply ? cport : sport;
  tcp[0] = sp >> 8, tcp[1] = sp & 0xff, tcp[2] = dp >> 8, tcp[3] = dp & 0xff;
  tcp[4] = seq >> 24, tcp[5] = (seq >> 16) & 0xff, tcp[6] = (seq >> 8) & 0xff, tcp[7] = seq & 0xff;
  tcp[12] = 5 << 4;
  tcp[13] = 0x18;  // PSH, ACK
  std::vector<std::byte> out(f.size());
  std::memcpy(out.data(), f.data(), f.size());
  return out;
}

void make_capture(const std::string& path, std::uint64_t frames) {
  auto out = netlib::capture::capture_writer::create(path);
  std::uint32_t ports[4];
  for (auto& p : ports) p = out.add_interface(netlib::packet::link_type::ethernet);
  const std::uint32_t flows = 1000;
  std::vector<std::uint32_t> seq(flows * 2, 1);
  for (std::uint64_t i = 0; i < frames; ++i) {
    const auto flow = static_cast<std::uint32_t>(i % flows);
    const bool reply = (i / flows) % 2 == 1;
    auto& s = seq[flow * 2 + (reply ? 1 : 0)];
    const auto f = frame(flow, s, reply);
    s += 16;
    const std::uint8_t src = static_cast<std::uint8_t>(std::to_integer<int>(f[11]));
    out.write(ports[src / 16], netlib::from_nanoseconds(static_cast<std::int64_t>(i) * 1000), f);
  }
}

struct measure {
  std::string name;
  std::uint64_t frames = 0;
  std::uint64_t bytes = 0;    // captured bytes processed
  std::uint64_t payload = 0;  // reassembled TCP payload (decode only)
  double seconds = 0;
};

measure bare(const std::string& path) {
  char err[PCAP_ERRBUF_SIZE];
  pcap_t* p = pcap_open_offline(path.c_str(), err);
  if (!p) throw std::runtime_error(err);
  measure m{"bare pcap_next_ex loop"};
  const auto t0 = clock_type::now();
  pcap_pkthdr* h;
  const u_char* data;
  while (pcap_next_ex(p, &h, &data) == 1) {
    ++m.frames;
    m.bytes += h->caplen;
  }
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  pcap_close(p);
  return m;
}

struct counting_visitor : netlib::packet::tcp_visitor {
  std::uint64_t bytes = 0;
  void on_data(const netlib::packet::tcp_conversation&, netlib::packet::tcp_direction, netlib::byte_view b,
               netlib::time_point) override {
    bytes += b.size();
  }
};

measure decode(const std::string& path, std::uint64_t file_bytes) {
  measure m{"netlib decode + reassembly (replay_tcp)"};
  const auto t0 = clock_type::now();
  auto reader = netlib::capture::capture_reader::open(path);
  counting_visitor v;
  const auto stats = netlib::capture::replay_tcp(reader, v);
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  m.frames = stats.packets;
  m.bytes = file_bytes;  // replaced by the captured bytes (the bare loop's count) by the caller
  m.payload = v.bytes;
  if (stats.tcp_packets != stats.packets || stats.decode_errors != 0)
    throw std::runtime_error("decode errors in the capture");
  return m;
}

struct switch_counts {
  std::uint64_t forward = 0, flood = 0, filter = 0, drop = 0;
};

measure switching(const std::string& path, switch_counts& counts) {
  measure m{"netlib learning switch core"};
  const auto t0 = clock_type::now();
  auto reader = netlib::capture::capture_reader::open(path);
  netlib::l2::learning_switch sw(netlib::l2::switch_config{.port_count = 4});
  netlib::l2::forwarding_decision d;
  while (auto rec = reader.next()) {
    ++m.frames;
    m.bytes += rec->data.size();
    sw.receive(static_cast<netlib::l2::port_id>(rec->interface_id), rec->data, rec->ts, d);
  }
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  const auto& c = sw.counters().decisions;
  counts = {c.forward, c.flood, c.filter, c.drop};
  if (c.forward == 0) throw std::runtime_error("the switch forwarded nothing");
  return m;
}

// `"key": value` in lab-switch's JSON summary (pretty-printed or not).
bool has_count(const std::string& json, const std::string& key, std::uint64_t value) {
  for (const char* sep : {": ", ":"}) {
    if (json.find(fmt::format("\"{}\"{}{}", key, sep, value)) != std::string::npos) return true;
  }
  return false;
}

measure replay(const std::string& lab_switch, const std::string& path, const std::filesystem::path& dir,
               std::uint64_t frames, const switch_counts& expect) {
  measure m{"lab-switch replay (CLI)"};
  const std::string out = (dir / "replay.json").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args{lab_switch, "replay", path, "--summary", "--json"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto t0 = clock_type::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, lab_switch.c_str(), &actions, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error(fmt::format("cannot run {} (build the lab-switch target)", lab_switch));
  }
  int status = 0;
  waitpid(pid, &status, 0);
  m.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  posix_spawn_file_actions_destroy(&actions);
  std::ifstream in(out);
  std::stringstream json;
  json << in.rdbuf();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("lab-switch replay failed");
  const std::string j = json.str();
  if (!has_count(j, "frames", frames) || !has_count(j, "forward", expect.forward) ||
      !has_count(j, "flood", expect.flood) || !has_count(j, "filter", expect.filter) ||
      !has_count(j, "drop", expect.drop)) {
    throw std::runtime_error("lab-switch replay's counts differ from the switch core's:\n" + j);
  }
  m.frames = frames;
  m.bytes = 0;  // filled by the caller: the file's captured bytes
  return m;
}

std::string sibling(const char* argv0, const std::string& name) {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) self = argv0;
  return (self.parent_path() / name).string();
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t frames = argc > 1 ? std::stoull(argv[1]) : 10'000'000;
  const std::string lab_switch = argc > 2 ? argv[2] : sibling(argv[0], "lab-switch");
  std::string dir_template = (std::filesystem::temp_directory_path() / "netlab-bench-XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) throw std::runtime_error("cannot create a temporary directory");
  const std::filesystem::path dir = dir_template;
  const std::string path = (dir / "bench.pcapng").string();
  int rc = 0;
  try {
    make_capture(path, frames);
    const auto file_bytes = std::filesystem::file_size(path);
    const measure b = bare(path);
    switch_counts counts;
    measure dec = decode(path, file_bytes);
    dec.bytes = b.bytes;  // the same records: captured bytes as the bare loop counted them
    const measure core = switching(path, counts);
    measure cli = replay(lab_switch, path, dir, frames, counts);
    cli.bytes = core.bytes;
    std::cout << fmt::format("capture: {} frames of 70 B on 4 interfaces, {:.2f} GB pcapng\n", frames,
                             file_bytes / 1e9);
    for (const auto& m : {b, dec, core, cli}) {
      std::cout << fmt::format("  {:<28} {:>6.2f} M frames/s  {:>6.3f} GB/s  {:.2f} x bare", m.name,
                               m.frames / m.seconds / 1e6, m.bytes / m.seconds / 1e9, b.seconds / m.seconds);
      if (m.payload > 0) std::cout << fmt::format("  (TCP payload {:.3f} GB/s)", m.payload / m.seconds / 1e9);
      std::cout << '\n';
    }
    for (const auto& m : {b, dec, core, cli})
      std::cout << fmt::format(
          "{{\"bench\":\"capture\",\"config\":\"{}\",\"frames\":{},\"seconds\":{:.3f},\"frames_per_s\":{:.0f},"
          "\"gb_per_s\":{:.4f},\"payload_gb_per_s\":{:.4f},\"ratio_to_bare\":{:.3f}}}\n",
          m.name, m.frames, m.seconds, m.frames / m.seconds, m.bytes / m.seconds / 1e9, m.payload / m.seconds / 1e9,
          b.seconds / m.seconds);
  } catch (const std::exception& e) {
    std::cerr << "bench_capture: " << e.what() << '\n';
    rc = 1;
  }
  std::filesystem::remove_all(dir);
  return rc;
}
