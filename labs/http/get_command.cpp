// `lab-http get URL`: fetch the base page (and with --objects the objects it references on the
// same server) in one of the textbook's modes, print per-object timing, the measured RTT and the
// response time the model of textbook §2.2.2 predicts for that RTT
// (netlib::calc::http_response_time, the delay lab's calculator). The RTT is the first
// connection's handshake as the kernel measured it (TCP_INFO right after connect: SYN to
// SYN-ACK), not the time of the connect() call, which on the loopback is about 20 times longer
// (name resolution, socket set-up, waking this thread); the report says which one it shows (the
// connect() call only when the kernel gave no sample). With `-o -` the body is the only thing on
// stdout and the report goes to stderr.
#include "get_command.hpp"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "fetch_session.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/http_timing.hpp"
#include "netlib/core/units.hpp"
#include "netlib/http/link_extractor.hpp"

namespace lab_http {
namespace {

namespace http = netlib::http;
namespace calc = netlib::calc;

struct get_options {
  std::string url;
  bool objects = false, non_persistent = false, pipelined = false, json = false, insecure = false, fail = false;
  unsigned parallel = 0;
  std::string cookie_jar, cache_dir, output, ca_file;
  double timeout_s = 10;
};

calc::http_mode mode_of(const get_options& o) {
  if (o.pipelined) return calc::http_mode::pipelined;
  if (o.parallel > 0) return calc::http_mode::parallel;
  if (o.non_persistent) return calc::http_mode::nonpersistent;
  return calc::http_mode::persistent;
}

std::vector<http::url> same_server_objects(const http::url& base, const std::string& html) {
  std::vector<http::url> out;
  for (const auto& link : http::extract_object_links(html)) {
    auto u = http::resolve_reference(base, link);
    if (!u || u->scheme != base.scheme || u->host != base.host || u->port != base.port) continue;
    bool seen = false;
    for (const auto& o : out) seen = seen || o.to_string() == u->to_string();
    if (!seen) out.push_back(*u);
  }
  return out;
}

void write_output(const std::string& path, const std::string& body) {
  if (path.empty()) return;
  if (path == "-") {
    std::cout << body << std::flush;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!(out << body)) throw netlib::app::failure("cannot write " + path);
}

nlohmann::json object_json(const object_result& r) {
  nlohmann::json j{{"url", r.url},
                   {"status", r.status},
                   {"body_bytes", r.body_bytes},
                   {"start_s", r.start_s},
                   {"end_s", r.end_s},
                   {"elapsed_s", r.end_s - r.start_s},
                   {"connection", r.connection}};
  if (!r.cache.empty()) j["cache"] = r.cache;
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

// The RTT the model is given: the kernel's handshake sample, else the connect() call.
double rtt_of(const connect_timing& t) {
  return t.handshake_rtt_s.value_or(t.connect_call_s);
}

void print_report(const get_options& o, const std::vector<object_result>& all, double total, const connect_timing& rtt,
                  const calc::http_timing_result& model, int connections) {
  if (o.json) {
    nlohmann::json objs = nlohmann::json::array();
    for (const auto& r : all) objs.push_back(object_json(r));
    netlib::app::print_json(
        {{"url", o.url},
         {"mode", std::string(calc::mode_name(mode_of(o)))},
         {"objects", objs},
         {"referenced_objects", all.size() - 1},
         {"connections", connections},
         {"rtt_s", rtt_of(rtt)},
         {"rtt_source", rtt.handshake_rtt_s ? "tcp_handshake" : "connect_call"},
         {"connect_call_s", rtt.connect_call_s},
         {"total_s", total},
         {"model", {{"total_s", model.total_s}, {"rtts", model.rtts}, {"explanation", model.explanation}}}});
    return;
  }
  // With the body on stdout (-o -), the report goes to stderr.
  std::FILE* out = o.output == "-" ? stderr : stdout;
  for (const auto& r : all) {
    if (!r.error.empty()) {
      fmt::print(out, "{:<50} error: {}\n", r.url, r.error);
      continue;
    }
    fmt::print(out, "{:<50} {} {:>9} conn {} {:>10} -> {:>10}{}\n", r.url, r.status,
               netlib::units::format_bytes(double(r.body_bytes)), r.connection,
               netlib::units::format_seconds(r.start_s), netlib::units::format_seconds(r.end_s),
               r.cache.empty() ? "" : " (" + r.cache + ")");
  }
  fmt::print(out, "mode {}, {} referenced objects, {} TCP connection(s)\n", calc::mode_name(mode_of(o)), all.size() - 1,
             connections);
  if (rtt.handshake_rtt_s)
    fmt::print(out,
               "measured RTT {} (the first TCP handshake, SYN to SYN-ACK, as the kernel timed it: TCP_INFO); "
               "the whole connect() call took {}\n",
               netlib::units::format_seconds(*rtt.handshake_rtt_s), netlib::units::format_seconds(rtt.connect_call_s));
  else
    fmt::print(out, "measured RTT {} (the whole connect() call: the kernel gave no handshake sample)\n",
               netlib::units::format_seconds(rtt.connect_call_s));
  fmt::print(out, "total measured {}, model (textbook §2.2.2) {} = {} RTT\n", netlib::units::format_seconds(total),
             netlib::units::format_seconds(model.total_s), model.rtts);
  std::istringstream lines(model.explanation);
  for (std::string line; std::getline(lines, line);) fmt::print(out, "  {}\n", line);
  std::fflush(out);
}

int run_get(const get_options& o) {
  const auto base = http::parse_url(o.url);
  if (!base) throw netlib::app::usage_error("URL " + o.url + ": expected http://HOST[:PORT]/PATH or https://...");
  if ((o.non_persistent ? 1 : 0) + (o.parallel > 0 ? 1 : 0) + (o.pipelined ? 1 : 0) > 1)
    throw netlib::app::usage_error("choose one of --non-persistent, --parallel N, --pipelined");
  if (o.json && o.output == "-")
    throw netlib::app::usage_error("-o - and --json both write to stdout: write the body to a file (-o FILE)");
  if (!base->secure() && (o.insecure || !o.ca_file.empty()))
    throw netlib::app::usage_error("--cacert and --insecure are used only for an https:// URL");
  if (o.insecure && !o.ca_file.empty())
    throw netlib::app::usage_error("--insecure verifies nothing, so --cacert would not be used: give one of them");
  http::cookie_jar jar;
  if (!o.cookie_jar.empty()) {
    std::ifstream in(o.cookie_jar);
    std::stringstream s;
    s << in.rdbuf();
    jar.load(s.str());
  }
  std::unique_ptr<client_cache> cache;
  if (!o.cache_dir.empty()) cache = std::make_unique<client_cache>(o.cache_dir);
  fetch_session session({std::chrono::milliseconds(static_cast<long long>(o.timeout_s * 1000)), !o.insecure, o.ca_file},
                        o.cookie_jar.empty() ? nullptr : &jar, cache.get());
  const calc::http_mode mode = mode_of(o);
  const bool reuse = mode == calc::http_mode::persistent || mode == calc::http_mode::pipelined;
  std::vector<object_result> results(1);
  int index = 0;
  std::unique_ptr<origin_connection> conn;
  if (reuse)
    conn = fetch_persistent(session, {*base}, results, nullptr, index);
  else
    fetch_non_persistent(session, {*base}, results, 1);
  if (!results[0].error.empty()) throw netlib::app::failure(results[0].error);
  std::vector<http::url> objects;
  if (o.objects) objects = same_server_objects(*base, results[0].body);
  std::vector<object_result> rest(objects.size());
  switch (mode) {
    case calc::http_mode::persistent:
      conn = fetch_persistent(session, objects, rest, std::move(conn), index);
      break;
    case calc::http_mode::pipelined:
      conn = fetch_pipelined(session, objects, rest, std::move(conn), index);
      break;
    case calc::http_mode::nonpersistent:
      fetch_non_persistent(session, objects, rest, 1);
      break;
    case calc::http_mode::parallel:
      fetch_non_persistent(session, objects, rest, o.parallel);
      break;
  }
  const double total = session.elapsed();
  if (conn) conn->close();
  results.insert(results.end(), std::make_move_iterator(rest.begin()), std::make_move_iterator(rest.end()));
  calc::http_timing_input in;
  const connect_timing rtt = session.first_connect().value_or(connect_timing{});
  in.rtt_s = rtt_of(rtt);
  in.objects = static_cast<long long>(objects.size());
  in.mode = mode;
  in.parallel = o.parallel > 0 ? o.parallel : 1;
  print_report(o, results, total, rtt, calc::http_response_time(in), session.connections());
  if (!o.cookie_jar.empty()) {
    std::ofstream out(o.cookie_jar);
    if (!(out << jar.save())) throw netlib::app::failure("cannot write the cookie jar " + o.cookie_jar);
  }
  // --fail, as curl's: an error status (400 and above) for the page or an object is a failure
  // (exit 1; docs/conventions.md), and the error page's body is not written.
  std::vector<const object_result*> refused;
  if (o.fail)
    for (const auto& r : results)
      if (r.error.empty() && r.status >= 400) refused.push_back(&r);
  if (refused.empty() || refused.front() != &results[0]) write_output(o.output, results[0].body);
  if (!refused.empty()) {
    const auto& first = *refused.front();
    const std::string more =
        refused.size() > 1 ? fmt::format("; {} more with an error status", refused.size() - 1) : "";
    throw netlib::app::failure(
        fmt::format("{}: the server answered {} {} (--fail{})", first.url, first.status, first.reason, more));
  }
  for (const auto& r : results)
    if (!r.error.empty()) return netlib::app::exit_failure;
  return netlib::app::exit_ok;
}

}  // namespace

void add_get_command(CLI::App& app) {
  auto o = std::make_shared<get_options>();
  auto* cmd = netlib::app::add_command(
      app, "get", "HTTP client: fetch a page and its objects, time them, compare with the response-time model",
      "lab-http get http://127.0.0.1:8080/ --objects --pipelined\n"
      "  lab-http get http://127.0.0.1:8080/ --objects --parallel 5 --json\n"
      "  lab-http get http://127.0.0.1:8080/visits --cookie-jar jar.txt --cache ./cache -o page.html\n"
      "  lab-http get http://127.0.0.1:8080/missing.html --fail   (exit 1 on a 404)");
  cmd->add_option("URL", o->url, "http:// or https:// URL of the base page")->required();
  cmd->add_flag("--objects", o->objects, "Also fetch the objects the page references on the same server");
  cmd->add_flag("--non-persistent", o->non_persistent, "A new TCP connection per object (HTTP/1.0 style)");
  cmd->add_option("--parallel", o->parallel, "Non-persistent with N parallel connections")->check(CLI::Range(1u, 64u));
  cmd->add_flag("--pipelined", o->pipelined, "One persistent connection, all object requests sent back to back");
  cmd->add_option("--cookie-jar", o->cookie_jar, "Read and update cookies in this file (Netscape format)");
  cmd->add_option("--cache", o->cache_dir, "Keep a local cache in this folder and revalidate with it");
  cmd->add_option("-o,--output", o->output,
                  "Write the base page's body to FILE ('-': stdout, and the report to stderr)");
  cmd->add_flag("-f,--fail", o->fail,
                "Exit 1 when the server answers an error status (400 or above) for the page or an object, "
                "as curl --fail does; an error page's body is not written to -o (without --fail the status "
                "is only reported, and the exit code is 0)");
  netlib::app::add_duration(*cmd, "--timeout", o->timeout_s,
                            "Time allowed for each connect, read and write (default 10s)", 0.001, 3600);
  cmd->add_option("--cacert", o->ca_file, "Trust this PEM certificate for https (e.g. a self-signed one)")
      ->check(netlib::app::input_file());
  cmd->add_flag("-k,--insecure", o->insecure, "Do not verify the https server's certificate");
  netlib::app::add_json_flag(*cmd, o->json);
  netlib::app::set_action(*cmd, [o] { return run_get(*o); });
}

}  // namespace lab_http
