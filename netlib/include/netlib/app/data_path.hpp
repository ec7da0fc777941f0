#pragma once
// Where a program finds netlab's shared files (captures/), in every layout it ships in:
//   1. beside the executable, ../share/netlab/RELATIVE: the release bundle (bin/ and share/ side
//      by side) and any install prefix (/usr/bin -> /usr/share/netlab, the Debian package);
//   2. the source tree, when the program runs from the build folder it was built in;
//   3. /usr/share/netlab/RELATIVE.
#include <string>
#include <vector>

namespace netlib::app {

// The places looked at for `relative` (e.g. "captures/net/loopback-http.pcapng"), in order.
std::vector<std::string> data_candidates(const std::string& relative);
// The first of them that exists; throws netlib::app::failure naming every place looked at.
std::string data_path(const std::string& relative);

}  // namespace netlib::app
