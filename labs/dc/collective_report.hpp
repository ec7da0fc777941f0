#pragma once
// How lab-dc shows collective traffic (lab-dc collective and lab-dc run --collective): the jobs
// as placed, each scheduler's results, the colliding links, as text and JSON, and the progress of
// every job over time as an SVG chart (labs/common/svg_plot).
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <vector>

#include "netlib/dc/collective.hpp"
#include "netlib/dc/topology.hpp"

namespace netlab::lab_dc {

// The --job flags placed on a fabric (netlib::dc::parse_job, place_jobs); with none, the job
// `fallback` (its ranks at most the fabric's hosts, and at most 8). Every mistake is a usage error
// naming the flag.
netlib::dc::collective_setup jobs_from_flags(const netlib::dc::topology& t, const std::vector<std::string>& jobs,
                                             const std::string& fallback);

// "A: 8 ranks, packed, ring h1 h2 ... h8 (3 racks); 256 MB in 14 steps of 32 MB per ring edge,
// 2 channels per edge (16 flows); compute 0 s, 1 iteration"
std::string describe_job(const netlib::dc::topology& t, const netlib::dc::collective_setup& s, std::size_t job);
nlohmann::json jobs_json(const netlib::dc::topology& t, const netlib::dc::collective_setup& s);
// The slowest host link of a job's ranks: the rate busbw is compared with.
double job_link_bps(const netlib::dc::topology& t, const netlib::dc::placed_job& j);

// "A h2->h3" (one ring edge), with " ch 1" for a channel when the job has several.
std::string edge_name(const netlib::dc::topology& t, const netlib::dc::collective_setup& s, std::size_t flow,
                      bool with_channel);
std::vector<std::string> path_names(const netlib::dc::topology& t, std::span<const netlib::dc::arc_id> path);

nlohmann::json job_result_json(const netlib::dc::topology& t, const netlib::dc::collective_setup& s, std::size_t job,
                               const netlib::dc::job_result& r);
nlohmann::json collisions_json(const netlib::dc::topology& t, const netlib::dc::collective_setup& s,
                               std::span<const netlib::dc::collision> c);
// One line per colliding link: "leaf1->spine1: 2 ring edges want 20 Gbps of 10 Gbps: A h2->h3, A h4->h5".
std::string collisions_text(const netlib::dc::topology& t, const netlib::dc::collective_setup& s,
                            std::span<const netlib::dc::collision> c, const std::string& indent);
// Every flow: job, edge, channel, 5-tuple, and the path of each given path set (by name).
nlohmann::json ring_flows_json(const netlib::dc::topology& t, const netlib::dc::collective_setup& s,
                               const std::vector<std::pair<std::string, const netlib::dc::path_list*>>& paths);

// One panel per run (scheduler or measurement): each job's share of its bytes delivered over time.
struct progress_panel {
  std::string title;
  std::vector<std::vector<std::pair<double, double>>> jobs;  // per job: (time s, share)
  std::vector<std::string> notes;
};
std::string progress_svg(const std::string& title, const netlib::dc::collective_setup& s,
                         const std::vector<progress_panel>& panels);

}  // namespace netlab::lab_dc
