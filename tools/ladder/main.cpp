// netlab-ladder: the TCP conversations of a capture, and a ladder diagram of one of them.
#include <fmt/format.h>

#include <fstream>
#include <iostream>

#include "ladder_model.hpp"
#include "netlib/app/program.hpp"
#include "netlib/ftp/labels.hpp"
#include "netlib/http/labels.hpp"
#include "netlib/pop3/labels.hpp"
#include "netlib/smtp/labels.hpp"
#include "stevens.hpp"

int main(int argc, char** argv) {
  auto app = netlib::app::make_app(
      "netlab-ladder",
      "List the TCP conversations of a capture (pcap or pcapng) and draw one as a ladder diagram or a time-sequence "
      "graph",
      "netlab-ladder captures/net/loopback-http.pcapng --conversation 0 --svg ladder.svg\n"
      "  netlab-ladder captures/net/loopback-http.pcapng -c 1 --spacing time\n"
      "  netlab-ladder captures/tcp/bulk-upload.pcapng -c 0 --stevens graph.svg   (time-sequence graph)\n\n"
      "An SVG holds at most --page-size segments; a longer conversation is written as NAME.svg,\n"
      "NAME-2.svg, NAME-3.svg, ... (each page says which segments it shows).");
  std::string file;
  bool json = false;
  std::optional<std::uint64_t> conversation;
  std::string svg;
  std::string spacing = "even";
  netlab::ladder::ladder_layout layout;
  app->add_option("capture", file, "Capture file (.pcap or .pcapng)")->required()->check(netlib::app::input_file());
  netlib::app::add_json_flag(*app, json);
  app->add_option("--conversation,-c", conversation, "Conversation id (first column of the list) to draw as a ladder");
  app->add_option("--svg", svg, "Also write the ladder as SVG to this file (needs --conversation)");
  app->add_option("--spacing", spacing,
                  "Rows: even (one row per segment, default) or time (the gap between rows grows with the time "
                  "between segments, so a long RTT looks long)")
      ->check(CLI::IsMember({"even", "time"}));
  std::string stevens;
  std::string stevens_side;
  app->add_option("--stevens", stevens,
                  "Also write the conversation's time-sequence graph (Stevens: sequence numbers against time, ACKs, "
                  "receive window) as SVG to this file (needs --conversation)");
  app->add_option("--stevens-data", stevens_side,
                  "Whose data the time-sequence graph shows: client or server (default: the side that sent more)")
      ->check(CLI::IsMember({"client", "server"}));
  app->add_option("--page-size", layout.page_size, "Segments per SVG page (default 100; 0: one page)")
      ->check(CLI::Range(0, 100000));
  return netlib::app::run(*app, argc, argv, [&]() -> int {
    if (!svg.empty() && !conversation) throw netlib::app::usage_error("--svg needs --conversation N");
    if (spacing != "even" && !conversation) throw netlib::app::usage_error("--spacing needs --conversation N");
    if (!stevens.empty() && !conversation) throw netlib::app::usage_error("--stevens needs --conversation N");
    if (!stevens_side.empty() && stevens.empty()) throw netlib::app::usage_error("--stevens-data needs --stevens FILE");
    layout.by_time = spacing == "time";
    netlib::capture::progress_callback progress;
    if (netlib::app::stderr_is_terminal()) {
      progress = [](std::uint64_t packets) { std::cerr << "\r" << packets << " packets read..." << std::flush; };
    }
    // Application labels come from the protocol cores (HTTP request and status lines, FTP, SMTP and
    // POP3 commands and replies); payloads no protocol recognizes are labelled by their size.
    auto& labels = netlib::packet::label_registry::global();
    netlib::http::register_labels(labels);
    netlib::ftp::register_labels(labels);
    netlib::smtp::register_labels(labels);
    netlib::pop3::register_labels(labels);
    const auto model = netlab::ladder::build_model(file, conversation, labels, progress);
    if (progress && model.stats.packets >= 65536) std::cerr << "\r\033[K" << std::flush;
    netlib::capture::require_some_packet(file, model.stats);
    if (const auto note = netlib::capture::damage_note(file, model.stats))
      std::cerr << netlib::app::program_name() << ": warning: " << *note << '\n';
    if (conversation && *conversation >= model.conversations.size()) {
      throw netlib::app::failure(
          fmt::format("{}: no conversation {} (it has {}; run without --conversation to list them)", file,
                      *conversation, model.conversations.size()));
    }
    std::vector<std::string> written;
    if (!svg.empty()) {
      const std::size_t pages = netlab::ladder::svg_pages(model, layout);
      const auto dot = svg.rfind('.');
      const bool has_ext = dot != std::string::npos && svg.find('/', dot) == std::string::npos;
      for (std::size_t page = 0; page < pages; ++page) {
        const std::string name = page == 0 ? svg
                                           : (has_ext ? svg.substr(0, dot) : svg) + fmt::format("-{}", page + 1) +
                                                 (has_ext ? svg.substr(dot) : "");
        std::ofstream out(name, std::ios::binary | std::ios::trunc);
        out << netlab::ladder::render_ladder_svg(model, layout, page);
        if (!out.flush()) throw netlib::app::failure(fmt::format("{}: cannot write the SVG", name));
        written.push_back(name);
      }
    }
    if (!stevens.empty()) {
      std::optional<netlib::packet::tcp_direction> side;
      if (!stevens_side.empty())
        side = stevens_side == "client" ? netlib::packet::tcp_direction::client_to_server
                                        : netlib::packet::tcp_direction::server_to_client;
      const auto graph = netlab::ladder::read_stevens(file, *conversation, side);
      std::ofstream out(stevens, std::ios::binary | std::ios::trunc);
      if (graph) out << netlab::ladder::render_stevens_svg(*graph);
      if (!graph || !out.flush()) throw netlib::app::failure(fmt::format("{}: cannot write the SVG", stevens));
    }
    if (json) {
      netlab::ladder::render_json(model, std::cout);  // ends with a newline
    } else {
      std::cout << netlab::ladder::render_conversations_text(model);
      if (conversation) std::cout << '\n' << netlab::ladder::render_ladder_text(model, layout);
      if (written.size() == 1) std::cout << "ladder written to " << written.front() << '\n';
      if (written.size() > 1)
        std::cout << fmt::format("ladder written to {} pages: {} ... {}\n", written.size(), written.front(),
                                 written.back());
      if (!stevens.empty()) std::cout << "time-sequence graph written to " << stevens << '\n';
    }
    return netlib::app::exit_ok;
  });
}
