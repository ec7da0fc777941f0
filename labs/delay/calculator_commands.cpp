// lab-delay nodal | e2e | queue | little: thin wrappers over netlib::calc that parse textbook
// units, print a table or one JSON document, and the formulas with --explain.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common/report.hpp"
#include "netlib/app/program.hpp"
#include "netlib/calc/end_to_end.hpp"
#include "netlib/calc/input_error.hpp"
#include "netlib/calc/nodal.hpp"
#include "netlib/calc/queueing.hpp"
#include "netlib/core/units.hpp"

namespace netlab::lab_delay {
namespace {

using netlib::app::add_quantity;
using netlib::units::format_seconds;
namespace units = netlib::units;
using labs::common_flags;
using labs::report;

void add_nodal(CLI::App& app) {
  struct flags : common_flags {
    netlib::calc::nodal_input in;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "nodal", "One hop's delay: processing + queueing + L/R + d/s",
      "lab-delay nodal --length 1500B --rate 10Mbps --distance 2500km --speed 2.5e8m/s --explain");
  add_quantity(*cmd, "--length", f->in.length_bits, units::parse_bits, "Packet length L (1500B, 12000b)")->required();
  add_quantity(*cmd, "--rate", f->in.rate_bps, units::parse_rate_bps, "Link rate R (10Mbps)")->required();
  add_quantity(*cmd, "--distance", f->in.distance_m, units::parse_distance_m, "Link length d (2500km; default 0)");
  add_quantity(*cmd, "--speed", f->in.speed_mps, units::parse_speed_mps, "Propagation speed s (default 2e8m/s)");
  add_quantity(*cmd, "--processing", f->in.processing_s, units::parse_duration_s, "Processing delay (default 0)");
  add_quantity(*cmd, "--queueing", f->in.queueing_s, units::parse_duration_s, "Queueing delay (default 0)");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    const auto r = netlib::calc::nodal_delay(f->in);
    report out;
    out.json = {{"transmission_s", r.transmission_s},
                {"propagation_s", r.propagation_s},
                {"processing_s", r.processing_s},
                {"queueing_s", r.queueing_s},
                {"total_s", r.total_s},
                {"bandwidth_delay_bits", r.bandwidth_delay_bits},
                {"bit_width_m", r.bit_width_m},
                {"first_bit_position_m", r.first_bit_position_m},
                {"first_bit_arrived", r.first_bit_arrived}};
    out.row("transmission L/R", format_seconds(r.transmission_s));
    out.row("propagation d/s", format_seconds(r.propagation_s));
    out.row("processing", format_seconds(r.processing_s));
    out.row("queueing", format_seconds(r.queueing_s));
    out.row("nodal delay", format_seconds(r.total_s));
    out.row("bandwidth-delay product", fmt::format("{:.6g} bits", r.bandwidth_delay_bits));
    out.row("width of a bit", units::format_meters(r.bit_width_m));
    out.row("first bit at t = L/R", r.first_bit_arrived
                                        ? "already at the receiver"
                                        : units::format_meters(r.first_bit_position_m) + " from the sender");
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

// --link RATE[,DISTANCE[,PROCESSING]]
netlib::calc::link_spec parse_link(const std::string& text, double speed) {
  netlib::calc::link_spec l{.speed_mps = speed};
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto comma = text.find(',', start);
    parts.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (parts.size() > 3) throw netlib::app::usage_error("--link takes RATE[,DISTANCE[,PROCESSING]], e.g. 2Mbps,5000km");
  l.rate_bps = units::parse_rate_bps(parts[0]);
  if (parts.size() > 1) l.distance_m = units::parse_distance_m(parts[1]);
  if (parts.size() > 2) l.processing_s = units::parse_duration_s(parts[2]);
  return l;
}

struct e2e_flags : common_flags {
  long long links = 0;
  std::vector<std::string> link_texts;
  double length = 0, rate = 0, distance = 0, speed = 2e8, processing = 0, message = 0;
  long long packets = 1;
  CLI::Option *message_opt = nullptr, *packets_opt = nullptr, *links_opt = nullptr, *rate_opt = nullptr,
              *distance_opt = nullptr, *processing_opt = nullptr;

  std::vector<netlib::calc::link_spec> path() const {
    std::vector<netlib::calc::link_spec> out;
    for (const auto& t : link_texts) out.push_back(parse_link(t, speed));
    if (!out.empty() && links != 0 && links != static_cast<long long>(out.size()))
      throw netlib::app::usage_error("--links disagrees with the number of --link options");
    if (!out.empty()) {
      // Each --link carries its own rate, distance and processing delay.
      for (const auto* o : {rate_opt, distance_opt, processing_opt})
        if (o->count() > 0)
          throw netlib::app::usage_error(o->get_name() +
                                         " is not used with --link: write it into each --link "
                                         "RATE[,DISTANCE[,PROCESSING]]");
    }
    if (out.empty()) {
      if (links < 1) throw netlib::app::usage_error("give --links N with --rate, or one --link per link");
      if (rate <= 0) throw netlib::app::usage_error("--links needs --rate");
      for (long long i = 0; i < links; ++i)
        out.push_back(
            {.rate_bps = rate, .distance_m = distance, .speed_mps = speed, .processing_s = i ? processing : 0});
    }
    return out;
  }
};

int run_e2e(const e2e_flags& f) {
  const auto path = f.path();
  report out;
  if (f.message_opt->count() > 0) {
    if (f.length <= 0) throw netlib::app::usage_error("--message needs --length (the payload per packet)");
    if (f.packets_opt->count() > 0)
      throw netlib::app::usage_error(
          "--packets is not used with --message: the number of packets is the message "
          "size divided by --length");
    const auto s = netlib::calc::segmentation(path, f.message, f.length);
    out.json = {{"total_s", s.segmented_s},
                {"segmented_s", s.segmented_s},
                {"whole_message_s", s.whole_message_s},
                {"packets", s.packets},
                {"links", path.size()}};
    out.row("message sent whole", format_seconds(s.whole_message_s));
    out.row("in " + netlib::calc::count_of(s.packets, "packet", "packets"), format_seconds(s.segmented_s));
    out.explanation = s.explanation;
    return labs::emit(out, f.json, f.explain);
  }
  if (f.length <= 0) throw netlib::app::usage_error("--length is required");
  const auto r = netlib::calc::end_to_end_delay(path, f.length, f.packets);
  out.json = {{"total_s", r.total_s},
              {"first_packet_s", r.first_packet_s},
              {"links", path.size()},
              {"packets", f.packets},
              {"per_packet_s", r.per_packet_s}};
  out.row("links", std::to_string(path.size()));
  out.row("packets", std::to_string(f.packets));
  out.row("first packet arrives", format_seconds(r.first_packet_s));
  out.row("last packet arrives", format_seconds(r.total_s));
  out.explanation = r.explanation;
  return labs::emit(out, f.json, f.explain);
}

void add_e2e(CLI::App& app) {
  auto f = std::make_shared<e2e_flags>();
  auto* cmd = netlib::app::add_command(
      app, "e2e", "End-to-end delay of P packets over N store-and-forward links",
      "lab-delay e2e --links 3 --length 1500B --rate 2Mbps --packets 4 --explain\n"
      "  lab-delay e2e --link 2Mbps,5000km --link 1Mbps,4000km,3ms --length 1500B --speed 2.5e8m/s\n"
      "  lab-delay e2e --links 3 --rate 2Mbps --message 8Mb --length 10kb   (segmentation, P31)");
  f->links_opt =
      cmd->add_option("--links", f->links, "Number of equal links N (with --rate)")->check(CLI::Range(1, 10000));
  cmd->add_option("--link", f->link_texts, "One link: RATE[,DISTANCE[,PROCESSING]]; repeat per link")
      ->type_name("LINK");
  add_quantity(*cmd, "--length", f->length, units::parse_bits,
               "Packet length L (or payload per packet with --message)");
  f->rate_opt = add_quantity(*cmd, "--rate", f->rate, units::parse_rate_bps, "Rate of each of the --links links");
  f->packets_opt = cmd->add_option("--packets", f->packets, "Packets P sent back to back (default 1)")
                       ->check(CLI::Range(1LL, 1'000'000'000LL));
  f->distance_opt = add_quantity(*cmd, "--distance", f->distance, units::parse_distance_m,
                                 "Length of each of the --links links (default 0)");
  add_quantity(*cmd, "--speed", f->speed, units::parse_speed_mps, "Propagation speed (default 2e8m/s)");
  f->processing_opt = add_quantity(*cmd, "--processing", f->processing, units::parse_duration_s,
                                   "Processing delay at each router (default 0)");
  f->message_opt = add_quantity(*cmd, "--message", f->message, units::parse_bits,
                                "Compare sending this message whole with segmenting it into --length packets");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] { return run_e2e(*f); }));
}

void add_queue(CLI::App& app) {
  struct flags : common_flags {
    double length = 0, rate = 0, arrivals = 0;
    std::string model = "mm1";
    long long capacity = 0;
    CLI::Option* buffer_opt = nullptr;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(
      app, "queue", "Traffic intensity and average queueing delay (M/M/1, M/D/1, M/M/1/K)",
      "lab-delay queue --length 1500B --rate 10Mbps --arrival-rate 500/s --model md1 --explain\n"
      "  lab-delay queue --length 1500B --rate 10Mbps --arrival-rate 800/s --buffer 10");
  add_quantity(*cmd, "--length", f->length, units::parse_bits, "Packet length L")->required();
  add_quantity(*cmd, "--rate", f->rate, units::parse_rate_bps, "Link rate R")->required();
  add_quantity(*cmd, "--arrival-rate", f->arrivals, units::parse_per_second, "Packet arrival rate a (500/s)")
      ->required();
  cmd->add_option("--model", f->model, "mm1 (exponential sizes, default) or md1 (fixed sizes)")
      ->check(CLI::IsMember({"mm1", "md1"}));
  f->buffer_opt = cmd->add_option("--buffer", f->capacity,
                                  "K: packets the system holds, the one being sent included; gives the M/M/1/K "
                                  "delay and loss (with --model mm1)")
                      ->check(CLI::Range(1LL, 10'000'000LL));
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    const auto model = *netlib::calc::parse_model(f->model);
    if (f->buffer_opt->count() > 0 && model != netlib::calc::queue_model::mm1)
      throw netlib::app::usage_error(
          "--buffer gives M/M/1/K (exponential sizes); there is no M/D/1/K formula here: "
          "drop --model md1, or simulate fixed sizes with 'lab-delay simulate --sizes fixed --buffer K'");
    const auto r = netlib::calc::queueing_delay(f->length, f->rate, f->arrivals, model);
    report out;
    out.explanation = r.explanation;
    if (f->buffer_opt->count() > 0) {
      // A finite buffer: the delay of the packets that get in, and the fraction that does not.
      const auto k = f->capacity;
      const auto fin = netlib::calc::finite_buffer_delay(f->length, f->rate, f->arrivals, k);
      const auto loss = netlib::calc::finite_buffer_loss(r.traffic_intensity, k);
      out.json = {{"model", fmt::format("M/M/1/{}", k)},
                  {"traffic_intensity", r.traffic_intensity},
                  {"transmission_s", r.transmission_s},
                  {"capacity_packets", k},
                  {"unbounded", false},
                  {"queueing_delay_s", fin.queueing_delay_s},
                  {"total_s", fin.queueing_delay_s + r.transmission_s},
                  {"loss_probability", loss.loss_probability},
                  {"infinite_buffer_queueing_delay_s", labs::or_null(r.queueing_delay_s)}};
      out.row("model", fmt::format("M/M/1/K, K = {} (the one being sent and {} waiting)", k, k - 1));
      out.row("traffic intensity La/R", fmt::format("{:.6g}", r.traffic_intensity));
      out.row("transmission L/R", format_seconds(r.transmission_s));
      out.row("average queueing delay", format_seconds(fin.queueing_delay_s) + " (of the packets that get in)");
      out.row("loss probability", fmt::format("{:.6g}", loss.loss_probability));
      out.row("without the limit (M/M/1)", r.unbounded ? "unbounded (I >= 1)" : format_seconds(*r.queueing_delay_s));
      out.explanation += "\n" + fin.explanation + "\n" + loss.explanation;
      return labs::emit(out, f->json, f->explain);
    }
    out.json = {{"model", netlib::calc::model_name(model)},
                {"traffic_intensity", r.traffic_intensity},
                {"transmission_s", r.transmission_s},
                {"unbounded", r.unbounded},
                {"queueing_delay_s", labs::or_null(r.queueing_delay_s)},
                {"total_s", labs::or_null(r.total_s)}};
    out.row("model", std::string(netlib::calc::model_name(model)));
    out.row("traffic intensity La/R", fmt::format("{:.6g}", r.traffic_intensity));
    out.row("transmission L/R", format_seconds(r.transmission_s));
    out.row("average queueing delay", r.unbounded ? "unbounded (I >= 1)" : format_seconds(*r.queueing_delay_s));
    return labs::emit(out, f->json, f->explain);
  }));
}

void add_little(CLI::App& app) {
  struct flags : common_flags {
    double n = 0, lambda = 0, w = 0;
    CLI::Option *n_opt = nullptr, *l_opt = nullptr, *w_opt = nullptr;
  };
  auto f = std::make_shared<flags>();
  auto* cmd = netlib::app::add_command(app, "little", "Little's law N = λW: give two, get the third",
                                       "lab-delay little --arrival-rate 100/s --time 50ms");
  f->n_opt = cmd->add_option("--in-system", f->n, "Average number in the system N");
  f->l_opt = add_quantity(*cmd, "--arrival-rate", f->lambda, units::parse_per_second, "Arrival rate λ");
  f->w_opt = add_quantity(*cmd, "--time", f->w, units::parse_duration_s, "Average time in the system W");
  f->add(*cmd);
  netlib::app::set_action(*cmd, labs::calc_action([f] {
    auto opt = [](CLI::Option* o, double v) { return o->count() ? std::optional<double>(v) : std::nullopt; };
    const auto r = netlib::calc::littles_law(opt(f->n_opt, f->n), opt(f->l_opt, f->lambda), opt(f->w_opt, f->w));
    report out;
    out.json = {
        {"in_system", r.in_system}, {"arrival_rate_per_s", r.arrival_rate}, {"time_in_system_s", r.time_in_system_s}};
    out.row("N (in system)", fmt::format("{:.6g}", r.in_system));
    out.row("λ (arrivals)", fmt::format("{:.6g} /s", r.arrival_rate));
    out.row("W (time in system)", format_seconds(r.time_in_system_s));
    out.explanation = r.explanation;
    return labs::emit(out, f->json, f->explain);
  }));
}

}  // namespace

void add_calculator_commands(CLI::App& app) {
  add_nodal(app);
  add_e2e(app);
  add_queue(app);
  add_little(app);
}

}  // namespace netlab::lab_delay
