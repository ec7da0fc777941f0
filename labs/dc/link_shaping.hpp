#pragma once
// Real link capacity in a netns_fabric (docs/labs/datacenter.md, "Real capacity"): every veth end
// sends at its link's rate times a scale (10 Gbps links at 1/100 run at 100 Mbit/s, a rate two
// cores can carry on every link at once), with an HTB qdisc at its root. Queues, two ways:
//   fair  one HTB class per flow the model routes over the link (a u32 filter on its 5-tuple),
//         every class the same guaranteed share and the whole link as its ceiling, plus one class
//         for everything else (ACKs, flows the model placed elsewhere): HTB serves the backlogged
//         classes round robin (deficit round robin, equal quanta), so the flows crossing a link
//         share it evenly and a flow held back elsewhere leaves its share to the others; over TCP
//         that is the max-min fair share the model computes
//   fifo  one class, one queue: how a plain switch port shares a link, left to TCP
// Each class queues at most 512000 bytes (bfifo): more than lab-dc run's UDP sender keeps in
// flight (256 datagrams of at most 1514 bytes), so UDP is never dropped and the counters stay exact.
#include <span>
#include <string>

#include "netlib/dc/ecmp.hpp"
#include "netlib/dc/fair_share.hpp"
#include "netlib/dc/topology.hpp"
#include "netns_fabric.hpp"

namespace netlab::lab_dc {

enum class queue_kind { fair, fifo };

// Writes every arc's qdisc (`replace`: deletes the ones a previous call wrote first). `keys[i]` and
// `paths[i]` are flow i's 5-tuple and the arcs the model routes it over (used by fair queues
// only). Throws failure when tc fails or is missing.
void shape_links(const netns_fabric& fabric, const netlib::dc::topology& t, double scale, queue_kind queues,
                 std::span<const netlib::dc::flow_key> keys, const netlib::dc::path_list& paths, bool replace,
                 bool verbose);

// "10 Gbps links run at 100 Mbit/s (scale 1/100), an HTB qdisc on every veth end, fair queues: ..."
std::string describe_capacity(const netlib::dc::topology& t, double scale, queue_kind queues);

// The rate every class is set from, as tc writes it: "100000000bit".
std::string tc_rate(double bps);

// "1/100", "0.01", "1%" -> 0.01; "off" or "0" -> 0 (no qdisc). Throws std::invalid_argument.
double parse_scale(const std::string& text);

}  // namespace netlab::lab_dc
