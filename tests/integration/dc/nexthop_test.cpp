// The next-hop group models (netlib/dc/nexthop_group.hpp) against Linux's own choices, in network
// namespaces this test creates (needs root and ip; skipped with the reason otherwise, a failure
// under CI=true). One router namespace with four next hops (veth pairs into a peer namespace) and
// four ways to spread over them:
//   10.9/16  nhid 100: group 1/2/3/4 type resilient buckets 64           (resilient)
//   10.8/16  a multipath route over the four, weights 1, 2, 3, 4          (hash-threshold, WCMP)
//   10.7/16  nhid 300: group 1,1/2,2/3,3/4,4 (weights, hash-threshold)   (nexthop objects)
//   10.6/16  nhid 400: group 1,1/2,2/3,3/4,4 type resilient buckets 50    (resilient, WCMP)
//   10.5/16  a multipath route over the four, equal weights               (hash-threshold)
// For 1000 TCP 5-tuples, `ip route get ... iif in0 ipproto tcp sport S dport D` must name the
// next hop the model picks (Linux's L4 hash with a known seed, then the group's rule), and
// `ip nexthop bucket show` must list the model's bucket table. Then next hop 2's link goes down
// (the kernel drops nexthop 2 from its groups and marks the route's next hop dead), and all of it
// again: the model after the removal, and the flows that moved, counted both ways.
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <regex>
#include <sstream>

#include "netlib/dc/hash.hpp"
#include "netlib/dc/nexthop_group.hpp"
#include "netlib/packet/ip_address.hpp"
#include "support/peers.hpp"
#include "support/process.hpp"

namespace dc_nexthop_test {

namespace dc = netlib::dc;
using netlab::test::run;

std::string ip_tool() {
  return access("/usr/sbin/ip", X_OK) == 0 ? "/usr/sbin/ip" : "/sbin/ip";
}

// Two namespaces of this test's own (netlab-nhtest-<pid>-r and -p), removed by the destructor.
class router {
 public:
  router()
      : r_("netlab-nhtest-" + std::to_string(getpid()) + "-r"), p_("netlab-nhtest-" + std::to_string(getpid()) + "-p") {
    must({ip_tool(), "netns", "add", r_});
    must({ip_tool(), "netns", "add", p_});
  }
  ~router() {
    run({ip_tool(), "netns", "del", r_});
    run({ip_tool(), "netns", "del", p_});
  }
  router(const router&) = delete;
  router& operator=(const router&) = delete;

  void must(const std::vector<std::string>& argv) {
    const auto r = run(argv);
    ASSERT_EQ(r.exit_code, 0) << argv.back() << ": " << r.err;
  }
  // ip -n R -batch -
  std::string batch(const std::string& cmds, bool in_router = true) {
    const auto r = run({ip_tool(), "-n", in_router ? r_ : p_, "-batch", "-"}, cmds, std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }
  void sysctl(const std::string& key, const std::string& value) {
    must({ip_tool(), "netns", "exec", r_, "sysctl", "-qw", key + "=" + value});
  }
  [[nodiscard]] const std::string& r() const { return r_; }
  [[nodiscard]] const std::string& p() const { return p_; }

 private:
  std::string r_, p_;
};

// The next hop (1..4) the kernel picks for each flow toward `net` (10.N.x.y).
std::vector<std::uint32_t> kernel_choices(router& rt, const std::vector<dc::flow_key>& keys, int net) {
  std::string cmds;
  for (const auto& k : keys) {
    auto dst = k.dst.to_string();
    dst = "10." + std::to_string(net) + dst.substr(dst.find('.', 3));
    cmds += "route get " + dst + " from " + k.src.to_string() + " iif in0 ipproto tcp sport " +
            std::to_string(k.src_port) + " dport " + std::to_string(k.dst_port) + "\n";
  }
  const auto out = rt.batch(cmds);
  std::vector<std::string> answers;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      answers.push_back(line);
    } else if (!answers.empty()) {
      answers.back() += line;
    }
  }
  EXPECT_EQ(answers.size(), keys.size());
  static const std::regex dev(R"( dev e([1-4]) )");
  std::vector<std::uint32_t> out_hops;
  for (const auto& a : answers) {
    std::smatch m;
    if (!std::regex_search(a, m, dev)) {
      ADD_FAILURE() << "no next hop in: " << a;
      out_hops.push_back(0);
      continue;
    }
    out_hops.push_back(static_cast<std::uint32_t>(std::stoul(m[1].str())));
  }
  return out_hops;
}

// `ip nexthop bucket show id G`: each bucket's nexthop id, by index.
std::vector<std::uint32_t> kernel_buckets(router& rt, int group, std::size_t buckets) {
  const auto r = run({ip_tool(), "-n", rt.r(), "nexthop", "bucket", "show", "id", std::to_string(group)});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::uint32_t> out(buckets, 0);
  static const std::regex line(R"(index (\d+) .*nhid (\d+))");
  std::istringstream in(r.out);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_search(l, m, line)) {
      const auto i = std::stoul(m[1].str());
      if (i < out.size()) out[i] = static_cast<std::uint32_t>(std::stoul(m[2].str()));
    }
  }
  return out;
}

std::size_t count_moved(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

TEST(DcNexthop, linux_groups_pick_as_the_model_before_and_after_a_next_hop_goes) {
  NETLAB_REQUIRE_ROOT("the nexthop groups' kernel check");
  if (access("/usr/sbin/ip", X_OK) != 0 && access("/sbin/ip", X_OK) != 0) {
    if (netlab::test::in_ci()) FAIL() << "ip (iproute2) is missing in CI";
    GTEST_SKIP() << "ip (iproute2) is not installed";
  }
  router rt;
  if (HasFatalFailure()) return;
  const std::uint32_t seed = 12345;
  rt.sysctl("net.ipv4.ip_forward", "1");
  rt.sysctl("net.ipv4.conf.all.rp_filter", "0");
  rt.sysctl("net.ipv4.conf.default.rp_filter", "0");
  rt.sysctl("net.ipv4.fib_multipath_hash_policy", "1");
  {
    const auto r = run({ip_tool(), "netns", "exec", rt.r(), "sysctl", "-qw",
                        "net.ipv4.fib_multipath_hash_seed=" + std::to_string(seed)});
    if (r.exit_code != 0) {
      if (netlab::test::in_ci()) FAIL() << "no net.ipv4.fib_multipath_hash_seed in CI's kernel";
      GTEST_SKIP()
          << "this kernel has no net.ipv4.fib_multipath_hash_seed (Linux 6.11 and later): the model cannot know "
             "its hash";
    }
  }
  std::string links = "link add in0 type veth peer name pin netns " + rt.p() + "\n";
  for (int i = 1; i <= 4; ++i) {
    links +=
        "link add e" + std::to_string(i) + " type veth peer name p" + std::to_string(i) + " netns " + rt.p() + "\n";
  }
  rt.batch(links);
  std::string peer = "link set pin up\n";
  for (int i = 1; i <= 4; ++i) peer += "link set p" + std::to_string(i) + " up\n";
  rt.batch(peer, false);
  std::string cmds = "addr add 10.2.0.1/16 dev in0\nlink set in0 up\n";
  for (int i = 1; i <= 4; ++i) {
    const auto n = std::to_string(i);
    cmds += "addr add 10.1." + n + ".1/24 dev e" + n + "\nlink set e" + n + " up\n";
  }
  rt.batch(cmds);
  cmds.clear();
  for (int i = 1; i <= 4; ++i) {
    const auto n = std::to_string(i);
    cmds += "nexthop add id " + n + " via 10.1." + n + ".2 dev e" + n + "\n";
  }
  const auto nh = run({ip_tool(), "-n", rt.r(), "-batch", "-"},
                      cmds + "nexthop add id 100 group 1/2/3/4 type resilient buckets 64\n", std::chrono::seconds(30));
  if (nh.exit_code != 0) {
    if (netlab::test::in_ci()) FAIL() << "ip nexthop ... type resilient failed in CI: " << nh.err;
    GTEST_SKIP() << "this kernel or ip has no resilient nexthop groups (Linux 5.13 and later): " << nh.err;
  }
  rt.batch(
      "nexthop add id 300 group 1,1/2,2/3,3/4,4\n"
      "nexthop add id 500 group 1/2/3/4 type resilient buckets 16 idle_timer 0\n"
      "nexthop add id 600 group 1/2/3/4 type resilient buckets 16\n"
      "nexthop add id 400 group 1,1/2,2/3,3/4,4 type resilient buckets 50\n"
      "route add 10.9.0.0/16 nhid 100\n"
      "route add 10.7.0.0/16 nhid 300\n"
      "route add 10.6.0.0/16 nhid 400\n"
      "route add 10.5.0.0/16 nexthop via 10.1.1.2 dev e1 nexthop via 10.1.2.2 dev e2 nexthop via 10.1.3.2 dev e3 "
      "nexthop via 10.1.4.2 dev e4\n"
      "route add 10.8.0.0/16 nexthop via 10.1.1.2 dev e1 weight 1 nexthop via 10.1.2.2 dev e2 weight 2 nexthop via "
      "10.1.3.2 dev e3 weight 3 nexthop via 10.1.4.2 dev e4 weight 4\n");
  // 1000 TCP flows from 10.2.x.y to 10.N.x.y; the model hashes them toward 10.9 (the hash of each
  // network's flows is its own: the destination differs).
  std::vector<dc::flow_key> keys;
  std::uint64_t state = 0x5eed;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::uint32_t>(state >> 33);
  };
  for (std::size_t i = 0; i < 1000; ++i) {
    dc::flow_key k;
    const auto s = next(), d = next();
    k.src = *netlib::packet::ip_address::parse("10.2." + std::to_string((s >> 8) % 250) + "." +
                                               std::to_string(s % 250 + 2));
    k.dst = *netlib::packet::ip_address::parse("10.9." + std::to_string((d >> 8) % 250) + "." +
                                               std::to_string(d % 250 + 1));
    k.protocol = 6;
    k.src_port = static_cast<std::uint16_t>(1024 + next() % 60000);
    k.dst_port = static_cast<std::uint16_t>(1 + next() % 65000);
    keys.push_back(k);
  }
  const auto keys_for = [&](int net) {
    auto out = keys;
    for (auto& k : out) {
      auto d = k.dst.to_string();
      k.dst = *netlib::packet::ip_address::parse("10." + std::to_string(net) + d.substr(d.find('.', 3)));
    }
    return out;
  };
  const std::vector<std::uint32_t> members{1, 2, 3, 4}, after_members{1, 3, 4};
  const std::vector<std::uint32_t> weights{1, 2, 3, 4}, after_weights{1, 3, 4};
  dc::resilient_table res(64, members), wres(50, members, weights);
  // The model's choice for every flow toward one network, by rule.
  const auto model = [&](int net, const auto& pick) {
    std::vector<std::uint32_t> out;
    for (const auto& k : keys_for(net)) out.push_back(pick(dc::linux_multipath_hash(k, dc::field_set::five, seed)));
    return out;
  };
  const auto threshold = [](const std::vector<std::uint32_t>& m, const std::vector<std::uint32_t>& w) {
    return [&m, &w](std::uint32_t h) { return m[dc::threshold_select(h, 31, w)]; };
  };
  struct snapshot {
    std::map<int, std::vector<std::uint32_t>> kernel, model;
  };
  const auto take = [&](const std::vector<std::uint32_t>& m, const std::vector<std::uint32_t>& w) {
    snapshot s;
    for (int net : {9, 8, 7, 6, 5}) s.kernel[net] = kernel_choices(rt, keys_for(net), net);
    const std::vector<std::uint32_t> equal(m.size(), 1);
    s.model[5] = model(5, threshold(m, equal));
    s.model[9] = model(9, [&](std::uint32_t h) { return res.select(h); });
    s.model[8] = model(8, threshold(m, w));
    s.model[7] = model(7, threshold(m, w));
    s.model[6] = model(6, [&](std::uint32_t h) { return wres.select(h); });
    return s;
  };
  const auto before = take(members, weights);
  EXPECT_EQ(kernel_buckets(rt, 100, 64), res.buckets());
  EXPECT_EQ(kernel_buckets(rt, 400, 50), wres.buckets());
  for (int net : {9, 8, 7, 6, 5}) {
    EXPECT_EQ(count_moved(before.kernel.at(net), before.model.at(net)), 0u) << "10." << net << " before";
  }
  // The shares: 10.8 and 10.7 weigh next hop 4 four times next hop 1.
  std::array<std::size_t, 5> share{};
  for (auto h : before.kernel.at(8)) ++share[h];
  EXPECT_GT(share[4], 3 * share[1]);

  // Next hop 2's link goes down.
  rt.must({ip_tool(), "-n", rt.r(), "link", "set", "e2", "down"});
  const auto show = run({ip_tool(), "-n", rt.r(), "nexthop", "show", "id", "100"});
  EXPECT_NE(show.out.find("group 1/3/4 type resilient"), std::string::npos) << show.out;
  res.replace(after_members);
  wres.replace(after_members, after_weights);
  const auto after = take(after_members, after_weights);
  EXPECT_EQ(kernel_buckets(rt, 100, 64), res.buckets());
  EXPECT_EQ(kernel_buckets(rt, 400, 50), wres.buckets());
  for (int net : {9, 8, 7, 6, 5}) {
    EXPECT_EQ(count_moved(after.kernel.at(net), after.model.at(net)), 0u) << "10." << net << " after";
  }
  // Flows moved: resilient exactly next hop 2's flows; hash-threshold more (with equal weights,
  // next hop 3's range [1/2, 3/4) becomes [1/3, 2/3): 1/12 of the hashes move from 3 to 4
  // besides next hop 2's quarter).
  std::map<int, std::size_t> moved, on_two;
  for (int net : {9, 8, 7, 6, 5}) {
    moved[net] = count_moved(before.kernel.at(net), after.kernel.at(net));
    for (auto h : before.kernel.at(net)) on_two[net] += h == 2;
    for (auto h : after.kernel.at(net)) EXPECT_NE(h, 2u);
  }
  EXPECT_EQ(moved[9], on_two[9]);
  EXPECT_EQ(moved[6], on_two[6]);
  EXPECT_GT(moved[8], on_two[8]);
  EXPECT_GT(moved[7], on_two[7]);
  EXPECT_GT(moved[5], on_two[5]);
  // Modulo (the model only: Linux has no such group): hash mod 4, then mod 3 over 1, 3, 4.
  std::size_t modulo_moved = 0;
  for (const auto& k : keys_for(9)) {
    const auto h = dc::linux_multipath_hash(k, dc::field_set::five, seed);
    modulo_moved += members[h % 4] != after_members[h % 3];
  }
  std::printf(
      "flows moved when next hop 2 of 4 goes (1000 flows; kernel = model on every flow):\n"
      "  modulo (model only)              %zu\n"
      "  hash-threshold, equal weights    %zu; %zu were on next hop 2\n"
      "  hash-threshold, weights 1:2:3:4  route %zu (%zu were on next hop 2), nexthop group %zu (%zu)\n"
      "  resilient, 64 buckets            %zu; %zu were on next hop 2\n"
      "  resilient, weights, 50 buckets   %zu; %zu were on next hop 2\n",
      modulo_moved, moved[5], on_two[5], moved[8], on_two[8], moved[7], on_two[7], moved[9], on_two[9], moved[6],
      on_two[6]);
  EXPECT_GT(modulo_moved, moved[9]);

  // Next hop 2 comes back. An overweight member's bucket moves only when idle: no packet through
  // it for idle_timer, or none since it was assigned. Group 500 (idle_timer 0): every bucket is
  // idle. Group 600 (120 s): the buckets the lookups below use are busy, the others idle.
  dc::resilient_table idle0(16, members), busy(16, members);
  idle0.replace(after_members);
  busy.replace(after_members);
  EXPECT_EQ(kernel_buckets(rt, 500, 16), idle0.buckets());
  EXPECT_EQ(kernel_buckets(rt, 600, 16), busy.buckets());
  rt.batch("route add 10.4.0.0/16 nhid 600\n");
  std::vector<dc::flow_key> few(keys.begin(), keys.begin() + 6);
  for (auto& k : few) {
    auto d = k.dst.to_string();
    k.dst = *netlib::packet::ip_address::parse("10.4" + d.substr(d.find('.', 3)));
  }
  static_cast<void>(kernel_choices(rt, few, 4));
  std::array<bool, 16> idle{}, unused{};
  idle.fill(true);
  unused.fill(true);
  for (const auto& k : few) unused[busy.bucket_of(dc::linux_multipath_hash(k, dc::field_set::five, seed))] = false;
  rt.batch(
      "link set e2 up\n"
      "nexthop add id 2 via 10.1.2.2 dev e2\n"
      "nexthop replace id 500 group 1/2/3/4 type resilient buckets 16 idle_timer 0\n"
      "nexthop replace id 600 group 1/2/3/4 type resilient buckets 16\n");
  idle0.replace(members, {}, idle);
  busy.replace(members, {}, unused);
  EXPECT_EQ(kernel_buckets(rt, 500, 16), idle0.buckets());
  EXPECT_EQ(kernel_buckets(rt, 600, 16), busy.buckets());
  EXPECT_EQ(idle0.buckets(), (std::vector<std::uint32_t>{2, 4, 4, 4, 2, 2, 3, 3, 4, 3, 3, 2, 1, 1, 1, 1}));
  EXPECT_NE(busy.buckets(), idle0.buckets());
}

}  // namespace dc_nexthop_test
