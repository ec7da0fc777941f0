// Fuzzes the users file parser (netlib::users_table::parse): any text either parses into a table
// whose every user obeys the rules (a valid name, found by exists(), its password's rules) or is
// refused with a users_error naming a line or a limit; never a crash. A table parsed twice over
// (the text repeated) must be refused for the duplicate, unless it was empty.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "netlib/core/users_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  netlib::users_table table;
  try {
    table = netlib::users_table::parse(text);
  } catch (const netlib::users_error& e) {
    const std::string_view what = e.what();
    if (what.rfind("line ", 0) != 0 && what.rfind("larger than", 0) != 0) __builtin_trap();
    return 0;
  }
  if (table.size() > netlib::users_table::max_users) __builtin_trap();
  for (const auto& name : table.names()) {
    if (!netlib::users_table::valid_name(name) || !table.exists(name)) __builtin_trap();
    if (table.check(name, "")) __builtin_trap();  // an empty password never matches
  }
  if (table.empty() || text.empty() || text.back() != '\n' || size * 2 > netlib::users_table::max_text) return 0;
  const std::string twice = std::string(text) + std::string(text);
  try {
    (void)netlib::users_table::parse(twice);
  } catch (const netlib::users_error&) {
    return 0;
  }
  __builtin_trap();  // every name of the first copy appears again in the second
}
