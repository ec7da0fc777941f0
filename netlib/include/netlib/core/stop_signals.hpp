#pragma once
// SIGINT and SIGTERM as a request to stop, for a program whose loop waits in bounded steps (a
// live capture, a UDP server, an experiment in network namespaces): catch_stop_signals() installs
// handlers that only set a flag (without SA_RESTART, so a blocking wait returns early with EINTR),
// and the loop checks stop_requested() between steps, then finishes cleanly: a capture file
// complete, namespaces removed, a summary printed.
//
//   netlib::catch_stop_signals();
//   while (!netlib::stop_requested()) { ... a step of at most a few hundred milliseconds ... }
namespace netlib {

void catch_stop_signals();
[[nodiscard]] bool stop_requested() noexcept;

}  // namespace netlib
