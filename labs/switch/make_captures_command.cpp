// lab-switch make-captures DIR: writes the lab's sample captures from their recipes.
#include "capture_recipes.hpp"
#include "commands.hpp"

#include "netlib/app/program.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>

namespace netlab::lab_switch {

void add_make_captures_command(CLI::App& app) {
  struct options {
    std::string dir;
    bool json = false;
  };
  auto opts = std::make_shared<options>();
  auto* cmd = netlib::app::add_command(
      app, "make-captures", "Write the sample multi-port captures (pcapng, one interface per port) into DIR",
      "lab-switch make-captures /tmp/switch && lab-switch replay /tmp/switch/four_hosts.pcapng", [opts] {
        std::error_code ec;
        std::filesystem::create_directories(opts->dir, ec);
        if (ec) throw netlib::app::failure(fmt::format("{}: {}", opts->dir, ec.message()));
        nlohmann::json files = nlohmann::json::array();
        for (const auto& r : all_recipes()) {
          for (const auto& path : write_recipe(r, opts->dir)) {
            if (path.ends_with(".pcapng")) {
              files.push_back({{"path", path},
                               {"frames", r.frames.size()},
                               {"ports", r.port_count},
                               {"description", r.description}});
            } else {
              files.push_back({{"path", path}, {"vlan_config_for", r.name + ".pcapng"}});
            }
            if (opts->json) continue;
            if (path.ends_with(".pcapng")) {
              fmt::print("{}  ({} frames, {} ports: {})\n", path, r.frames.size(), r.port_count, r.description);
            } else {
              fmt::print("{}  (its VLAN configuration: --vlan-config)\n", path);
            }
          }
        }
        if (opts->json) netlib::app::print_json({{"files", files}});
        return netlib::app::exit_ok;
      });
  cmd->add_option("dir", opts->dir, "Directory to write into (created if needed)")->required();
  netlib::app::add_json_flag(*cmd, opts->json);
}

}  // namespace netlab::lab_switch
