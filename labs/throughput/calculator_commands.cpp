// lab-throughput path | switching | http | cache: thin wrappers over netlib::calc that parse
// textbook units, print a table or one JSON document, and the formulas with --explain.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common/report.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/http_timing.hpp"
#include "netlib/calc/switching.hpp"
#include "netlib/calc/throughput.hpp"
#include "netlib/calc/web_cache.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_throughput {
namespace {

using labs::common_flags;
using labs::report;
using netlib::app::add_quantity;
using netlib::units::format_bps;
using netlib::units::format_seconds;
namespace units = netlib::units;

void add_path(CLI::App& app) {
  struct flags : common_flags {
    std::vector<std::string> links;
    double shared = 0, file = 0;
    long long flows = 1;
    CLI::Option *shared_opt = nullptr, *file_opt = nullptr, *flows_opt = nullptr;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "path", "Throughput of a path: its bottleneck, fair share min(Rs, Rc, R/N)",
      "lab-throughput path --link 2Mbps --link 1Mbps --shared 5Mbps --flows 10 --file 32Mb --explain");
  cmd->add_option("--link", f->links, "Rate of one link of the flow's own path (repeat per link)")->type_name("RATE");
  f->shared_opt = add_quantity(*cmd, "--shared", f->shared, units::parse_rate_bps,
                               "Rate R of a link shared fairly by --flows flows");
  f->flows_opt = cmd->add_option("--flows", f->flows, "Flows N sharing the --shared link (default 1; needs --shared)")
                     ->check(CLI::Range(1LL, 1'000'000'000LL));
  f->file_opt =
      add_quantity(*cmd, "--file", f->file, units::parse_bits, "Also give the time to transfer a file of this size");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    if (f->flows_opt->count() > 0 && f->shared_opt->count() == 0)
      throw netlib::app::usage_error(
          "--flows is not used without --shared: the flows share the --shared link "
          "(e.g. --shared 5Mbps --flows 10)");
    std::vector<double> rates;
    for (const auto& t : f->links) rates.push_back(units::parse_rate_bps(t));
    std::optional<netlib::calc::shared_link> shared;
    if (f->shared_opt->count()) shared = netlib::calc::shared_link{.rate_bps = f->shared, .flows = f->flows};
    std::optional<double> file;
    if (f->file_opt->count()) file = f->file;
    const auto r = netlib::calc::path_throughput(rates, shared, file);
    report out;
    out.json = {{"throughput_bps", r.throughput_bps},
                {"bottleneck", r.bottleneck < 0 ? nlohmann::json("shared") : nlohmann::json(r.bottleneck)},
                {"link_utilisation", r.link_utilisation},
                {"shared_utilisation", labs::or_null(r.shared_utilisation)},
                {"transfer_s", labs::or_null(r.transfer_s)}};
    out.row("throughput", format_bps(r.throughput_bps));
    out.row("bottleneck",
            r.bottleneck < 0 ? "the shared link" : fmt::format("link {} (index {})", r.bottleneck + 1, r.bottleneck));
    for (std::size_t i = 0; i < r.link_utilisation.size(); ++i)
      out.row(fmt::format("link {} utilisation", i + 1), fmt::format("{:.3g}%", 100 * r.link_utilisation[i]));
    if (r.shared_utilisation) out.row("shared link utilisation", fmt::format("{:.3g}%", 100 * *r.shared_utilisation));
    if (r.transfer_s) out.row("transfer time", format_seconds(*r.transfer_s));
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

void add_switching(CLI::App& app) {
  struct flags : common_flags {
    double link = 0, user = 0, active = 0;
    long long users = 0;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "switching", "Circuit versus packet switching: users supported, exact binomial",
      "lab-throughput switching --link 1Mbps --user-rate 100kbps --active 0.1 --users 35 --explain");
  add_quantity(*cmd, "--link", f->link, units::parse_rate_bps, "Link rate R")->required();
  add_quantity(*cmd, "--user-rate", f->user, units::parse_rate_bps, "Rate r of an active user")->required();
  add_quantity(*cmd, "--active", f->active, units::parse_fraction, "Probability p that a user is active (0.1 or 10%)")
      ->required();
  cmd->add_option("--users", f->users, "Users N sharing the link with packet switching")
      ->required()
      ->check(CLI::Range(0LL, 10'000'000LL));
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    const auto r = netlib::calc::circuit_vs_packet(f->link, f->user, f->active, f->users);
    report out;
    out.json = {{"circuit_users", r.circuit_users},
                {"probability_more_active", r.probability_more_active},
                {"expected_active", r.expected_active}};
    out.row("circuit switching supports", units::format_count(r.circuit_users, "user", "users"));
    out.row(fmt::format("P(more than {} of {} active)", r.circuit_users, f->users),
            fmt::format("{:.6g}", r.probability_more_active));
    out.row("expected active users", fmt::format("{:.6g}", r.expected_active));
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

void add_http(CLI::App& app) {
  struct flags : common_flags {
    netlib::calc::http_timing_input in;
    std::string mode = "nonpersistent";
    CLI::Option *base_opt = nullptr, *object_opt = nullptr, *rate_opt = nullptr, *parallel_opt = nullptr;
  };
  auto f = std::make_shared<flags>();
  auto* cmd =
      netlib::app::add_command(app, "http", "HTTP response time: DNS, non-persistent, parallel, persistent, pipelined",
                               "lab-throughput http --rtt 24ms --dns-rtt 4ms --objects 2 --mode pipelined --explain");
  add_quantity(*cmd, "--rtt", f->in.rtt_s, units::parse_duration_s, "Round-trip time to the server")->required();
  add_quantity(*cmd, "--dns-rtt", f->in.dns_s, units::parse_duration_s, "The whole DNS resolution time (default 0)");
  cmd->add_option("--objects", f->in.objects, "Objects referenced by the base page (the page not counted)")
      ->check(CLI::Range(0LL, 1'000'000LL));
  cmd->add_option("--mode", f->mode, "nonpersistent (default), parallel, persistent (no pipelining), pipelined")
      ->check(CLI::IsMember({"nonpersistent", "parallel", "persistent", "pipelined"}));
  f->parallel_opt =
      cmd->add_option("--parallel", f->in.parallel, "Parallel connections P for --mode parallel (default 1)")
          ->check(CLI::Range(1LL, 1'000'000LL));
  f->base_opt = add_quantity(*cmd, "--base-size", f->in.base_bits, units::parse_bits,
                             "Size of the base page (for transmission time, with --rate)");
  f->object_opt = add_quantity(*cmd, "--object-size", f->in.object_bits, units::parse_bits,
                               "Size of each object (for transmission time, with --rate)");
  f->rate_opt = add_quantity(*cmd, "--rate", f->in.rate_bps, units::parse_rate_bps,
                             "Bottleneck rate (for transmission time, with --base-size and/or --object-size)");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    const bool sizes = f->base_opt->count() > 0 || f->object_opt->count() > 0;
    if (sizes && f->rate_opt->count() == 0)
      throw netlib::app::usage_error(std::string(f->base_opt->count() > 0 ? "--base-size" : "--object-size") +
                                     " is not used without --rate: the transmission time is size / --rate");
    if (!sizes && f->rate_opt->count() > 0)
      throw netlib::app::usage_error(
          "--rate is not used without --base-size or --object-size: the transmission "
          "time is size / --rate");
    if (f->parallel_opt->count() > 0 && f->mode != "parallel")
      throw netlib::app::usage_error("--parallel is only used with --mode parallel");
    auto in = f->in;
    in.mode = *netlib::calc::parse_http_mode(f->mode);
    const auto r = netlib::calc::http_response_time(in);
    report out;
    out.json = {{"mode", f->mode},
                {"total_s", r.total_s},
                {"rtts", r.rtts},
                {"dns_s", r.dns_s},
                {"transmission_s", r.transmission_s}};
    out.row("mode", f->mode);
    out.row("round trips after DNS", fmt::format("{:.6g}", r.rtts));
    out.row("DNS", format_seconds(r.dns_s));
    out.row("transmission", format_seconds(r.transmission_s));
    out.row("click to last object", format_seconds(r.total_s));
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

void add_cache(CLI::App& app) {
  struct flags : common_flags {
    netlib::calc::web_cache_input in;
  };
  auto f = std::make_shared<flags>();
  auto* cmd =
      netlib::app::add_command(app, "cache", "Web cache: access-link intensity and response time with and without",
                               "lab-throughput cache --request-rate 16/s --object-size 850000b --access 15Mbps "
                               "--internet-delay 3s --hit-rate 0.4 --explain");
  add_quantity(*cmd, "--request-rate", f->in.request_rate, units::parse_per_second, "Requests per second β")
      ->required();
  add_quantity(*cmd, "--object-size", f->in.object_bits, units::parse_bits, "Average object size L")->required();
  add_quantity(*cmd, "--access", f->in.access_bps, units::parse_rate_bps, "Access link rate R")->required();
  add_quantity(*cmd, "--internet-delay", f->in.internet_s, units::parse_duration_s,
               "Internet delay (router to origin and back)");
  add_quantity(*cmd, "--hit-rate", f->in.hit_rate, units::parse_fraction, "Fraction of requests the cache satisfies");
  add_quantity(*cmd, "--lan-delay", f->in.lan_s, units::parse_duration_s, "Response time of a cache hit (default 0)");
  add_quantity(*cmd, "--lan", f->in.lan_bps, units::parse_rate_bps, "LAN rate, for the LAN intensity");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    const auto r = netlib::calc::web_cache(f->in);
    auto side = [](const netlib::calc::web_cache_side& s) {
      return nlohmann::json{{"access_intensity", s.access_intensity},
                            {"access_delay_s", labs::or_null(s.access_delay_s)},
                            {"response_s", labs::or_null(s.response_s)},
                            {"unbounded", !s.response_s.has_value()}};
    };
    report out;
    out.json = {{"lan_intensity", labs::or_null(r.lan_intensity)},
                {"without_cache", side(r.without_cache)},
                {"with_cache", side(r.with_cache)}};
    auto time = [](const std::optional<double>& t) { return t ? format_seconds(*t) : std::string("unbounded"); };
    if (r.lan_intensity) out.row("LAN intensity", fmt::format("{:.3g}", *r.lan_intensity));
    out.row("access intensity without cache", fmt::format("{:.3g}", r.without_cache.access_intensity));
    out.row("response time without cache", time(r.without_cache.response_s));
    out.row("access intensity with cache", fmt::format("{:.3g}", r.with_cache.access_intensity));
    out.row("response time with cache", time(r.with_cache.response_s));
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

}  // namespace

void add_calculator_commands(CLI::App& app) {
  add_path(app);
  add_switching(app);
  add_http(app);
  add_cache(app);
}

}  // namespace netlab::lab_throughput
