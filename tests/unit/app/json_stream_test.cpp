// print_json_with_array writes exactly what print_json (tidy_numbers, then dump(2)) writes for the
// whole document.
#include <gtest/gtest.h>

#include <sstream>

#include "netlib/app/json_stream.hpp"
#include "netlib/app/program.hpp"

namespace {

using nlohmann::json;

std::string streamed(const json& doc, const std::string& key, const json& items) {
  std::ostringstream out;
  netlib::app::print_json_with_array(
      doc, key, items.size(), [&](std::size_t i) { return items[i]; }, out);
  return out.str();
}

std::string whole(json doc, const std::string& key, const json& items) {
  doc[key] = items;
  return netlib::app::tidy_numbers(doc).dump(2) + "\n";
}

TEST(JsonStream, SameTextAsTheWholeDocument) {
  const json doc{{"capture", "x.pcap"}, {"connections", json::array()}, {"packets", 3}, {"z", {{"a", 1}}}};
  const json items = json::array({json{{"id", 0}, {"rtt", {{"count", 2}, {"values", {1, 2}}}}, {"text", "a\nb"}},
                                  json{{"id", 1}, {"empty", json::array()}, {"none", nullptr}}, json(7)});
  EXPECT_EQ(streamed(doc, "connections", items), whole(doc, "connections", items));
  EXPECT_EQ(streamed(doc, "connections", json::array()), whole(doc, "connections", json::array()));
  const json last{{"a", 1}, {"zz", json::array()}};  // the array as the last member (no comma after it)
  EXPECT_EQ(streamed(last, "zz", items), whole(last, "zz", items));
  json parsed;
  EXPECT_NO_THROW(parsed = json::parse(streamed(doc, "connections", items)));
  EXPECT_EQ(parsed, json::parse(whole(doc, "connections", items)));
}

// Numbers are rounded to 15 significant digits, as print_json does (docs/conventions.md): 0.1 + 0.2
// prints as 0.3, not 0.30000000000000004, in the document and in the streamed elements alike.
TEST(JsonStream, NumbersTidiedAsPrintJsonDoes) {
  const double noisy = 0.1 + 0.2;
  const json doc{{"mean_s", noisy}, {"connections", json::array()}};
  const json items = json::array({json{{"rtt_s", noisy}, {"list", {noisy, 2.5}}}, json(noisy)});
  const std::string text = streamed(doc, "connections", items);
  EXPECT_EQ(text.find("0.30000000000000004"), std::string::npos) << text;
  EXPECT_EQ(text, whole(doc, "connections", items));
  const json parsed = json::parse(text);
  EXPECT_EQ(parsed["mean_s"].get<double>(), 0.3);
  EXPECT_EQ(parsed["connections"][0]["rtt_s"].get<double>(), 0.3);
  EXPECT_EQ(parsed["connections"][0]["list"][0].get<double>(), 0.3);
  EXPECT_EQ(parsed["connections"][1].get<double>(), 0.3);
}

}  // namespace
