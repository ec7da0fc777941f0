// `lab-http analyze CAPTURE [--json]`: the capture feed (netlib::capture::replay_sessions,
// netlib/capture/session_feed.hpp) runs a netlib::http::transaction_analyzer on each TCP
// conversation; the transactions of all conversations are listed in the order their requests were
// sent. --json gives
// {"capture", "packets", "tcp_conversations", "http_connections", "transactions": [{"method",
// "target", "status", "body_bytes", "connection", ...}], counters, "truncated", "missing_bytes"}.
// A truncated capture or bytes missing from the streams are also one line on stderr each.
// Memory: the feed makes a conversation's analyzer (parsers and buffers) on its first byte and
// frees it when the conversation is released, so connections without payload cost only the
// reassembler's compact form and closed connections cost nothing but their transactions.
#include "analyze_command.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "netlib/app/json_stream.hpp"
#include "netlib/app/program.hpp"
#include "netlib/capture/session_feed.hpp"
#include "netlib/capture/tcp_replay.hpp"
#include "netlib/http/transaction_analyzer.hpp"

namespace lab_http {
namespace {

namespace http = netlib::http;

struct report {
  netlib::capture::replay_stats stats;
  std::vector<http::http_transaction> transactions;
  std::uint64_t http_connections = 0;
  http::analyzer_counters totals;
};

report analyze(const std::string& path) {
  report r;
  const auto add = [&r](netlib::capture::captured_session<http::transaction_analyzer>&& found) {
    http::http_session& s = found.session;
    if (!s.is_http) return;
    ++r.http_connections;
    for (auto& t : s.transactions) r.transactions.push_back(std::move(t));
    r.totals.malformed_requests += s.counters.malformed_requests;
    r.totals.malformed_responses += s.counters.malformed_responses;
    r.totals.responses_without_request += s.counters.responses_without_request;
    r.totals.gaps += s.counters.gaps;
  };
  r.stats = netlib::capture::replay_sessions<http::transaction_analyzer>(path, add);
  // The order the requests were sent (capture time), then by connection.
  std::stable_sort(r.transactions.begin(), r.transactions.end(), [](const auto& a, const auto& b) {
    return a.request_ts != b.request_ts ? a.request_ts < b.request_ts : a.connection < b.connection;
  });
  return r;
}

double since(netlib::time_point t, netlib::time_point base) {
  return netlib::to_seconds(t - base);
}

nlohmann::json transaction_json(const http::http_transaction& t, netlib::time_point first_ts) {
  nlohmann::json j{{"method", t.method},
                   {"target", t.target},
                   {"status", t.status ? nlohmann::json(*t.status) : nlohmann::json(nullptr)},
                   {"body_bytes", t.response_body_bytes},
                   {"connection", t.connection},
                   {"request_header_bytes", t.request_header_bytes},
                   {"request_body_bytes", t.request_body_bytes},
                   {"response_header_bytes", t.response_header_bytes},
                   {"interim", t.interim},
                   {"transfer", t.transfer},
                   {"complete", t.response_complete},
                   {"request_time_s", since(t.request_ts, first_ts)},
                   {"conditional", t.conditional},
                   {"not_modified", t.status == 304},
                   {"cookies_sent", t.cookies_sent},
                   {"cookies_set", t.cookies_set}};
  if (t.status) {
    j["wait_s"] = since(t.response_ts, t.request_ts);
    if (t.response_complete) j["total_s"] = since(t.response_end_ts, t.request_ts);
  }
  return j;
}

// The document without its transactions (written one at a time by print_json_with_array).
nlohmann::json to_json(const std::string& path, const report& r) {
  return {{"capture", path},
          {"packets", r.stats.packets},
          {"tcp_conversations", r.stats.conversations},
          {"http_connections", r.http_connections},
          {"transactions", nlohmann::json::array()},
          {"malformed_requests", r.totals.malformed_requests},
          {"malformed_responses", r.totals.malformed_responses},
          {"responses_without_request", r.totals.responses_without_request},
          {"gaps", r.totals.gaps},
          {"decode_errors", r.stats.decode_errors},
          {"truncated", r.stats.truncated_records > 0},
          {"missing_bytes", r.stats.missing_bytes}};
}

void print_text(const report& r) {
  std::cout << fmt::format("{} packets, {} TCP conversations, {} with HTTP, {} transactions\n", r.stats.packets,
                           r.stats.conversations, r.http_connections, r.transactions.size());
  for (const auto& t : r.transactions) {
    std::string notes;
    if (!t.interim.empty()) notes += fmt::format(" interim {}", fmt::join(t.interim, ","));
    if (t.conditional) notes += " conditional";
    if (!t.cookies_sent.empty()) notes += fmt::format(" cookies-sent {}", fmt::join(t.cookies_sent, ","));
    if (!t.cookies_set.empty()) notes += fmt::format(" cookies-set {}", fmt::join(t.cookies_set, ","));
    std::cout << fmt::format("conn {:>3} {:>9.6f}s {} {} -> {} head {}+{} B body {} B ({}){}{}\n", t.connection,
                             since(t.request_ts, r.stats.first_ts), t.method, t.target,
                             t.status ? std::to_string(*t.status) : "(no response)", t.request_header_bytes,
                             t.response_header_bytes, t.response_body_bytes, t.transfer.empty() ? "-" : t.transfer,
                             t.status ? fmt::format(" wait {:.3f} ms", since(t.response_ts, t.request_ts) * 1e3) : "",
                             notes);
  }
  const auto& k = r.totals;
  if (k.malformed_requests || k.malformed_responses || k.responses_without_request || k.gaps)
    std::cout << fmt::format(
        "malformed requests {}, malformed responses {}, responses without their request {}, gaps {}\n",
        k.malformed_requests, k.malformed_responses, k.responses_without_request, k.gaps);
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = netlib::app::add_command(app, "analyze", "Every HTTP transaction in a pcap/pcapng capture",
                                       "lab-http analyze captures/net/loopback-http.pcapng --json");
  cmd->add_option("CAPTURE", *path, "pcap or pcapng file")->required()->check(netlib::app::input_file());
  netlib::app::add_json_flag(*cmd, *json);
  netlib::app::set_action(*cmd, [path, json] {
    report r;
    try {
      r = analyze(*path);
      netlib::capture::require_some_packet(*path, r.stats);
    } catch (const std::exception& e) {
      throw netlib::app::failure(e.what());
    }
    if (const auto note = netlib::capture::damage_note(*path, r.stats))
      std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
    if (*json) {
      netlib::app::print_json_with_array(to_json(*path, r), "transactions", r.transactions.size(), [&](std::size_t i) {
        return transaction_json(r.transactions[i], r.stats.first_ts);
      });
    } else {
      print_text(r);
    }
    return netlib::app::exit_ok;
  });
}

}  // namespace lab_http
