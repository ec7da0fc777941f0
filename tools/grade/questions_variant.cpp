// Per-student variants of the capture questions. Theory of operation: the seed (a student id, an
// e-mail address, any text) is hashed with SHA-256 together with what is being chosen (the
// protocol, the subject, the slot), and the first 8 bytes of the digest seed
// netlib::calc::prng (std::mt19937_64 with the project's own range mapping), so a choice is the
// same on every machine and for every run, and choices for different protocols or slots are
// independent of each other. For each protocol, `items` of its subjects are drawn without
// replacement (a partial Fisher-Yates shuffle) and kept in capture order; questions without a
// subject are about the capture as a whole and are always candidates. Then, among the kept
// questions of one subject (or of the whole capture) that share a non-empty slot, one is drawn.
// Nothing else changes: the questions keep their ids, texts and answers.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "netlib/app/program.hpp"
#include "netlib/calc/prng.hpp"
#include "netlib/core/ascii.hpp"
#include "netlib/core/sha256.hpp"
#include "questions.hpp"

namespace netlab::grade {

namespace {

netlib::calc::prng prng_for(const std::string& seed, std::string_view what) {
  netlib::sha256 h;
  h.update(seed);
  h.update(std::string_view("\n", 1));
  h.update(what);
  const auto d = h.finish();
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | d[static_cast<std::size_t>(i)];
  return netlib::calc::prng(v);
}

// `count` distinct indices of [0, n), drawn with `rng`, sorted.
std::vector<std::size_t> draw(netlib::calc::prng& rng, std::size_t n, std::size_t count) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  count = std::min(count, n);
  for (std::size_t i = 0; i < count; ++i) {
    const auto j = static_cast<std::size_t>(rng.between(static_cast<long long>(i), static_cast<long long>(n - 1)));
    std::swap(order[i], order[j]);
  }
  order.resize(count);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace

std::vector<question> select_variant(const std::vector<question>& all, const std::string& seed, std::size_t items) {
  // The subjects of each protocol, in order of their first question.
  std::map<std::string, std::vector<std::string>> subjects;
  for (const auto& q : all) {
    if (q.subject.empty()) continue;
    auto& list = subjects[q.protocol];
    if (std::find(list.begin(), list.end(), q.subject) == list.end()) list.push_back(q.subject);
  }
  std::set<std::pair<std::string, std::string>> kept_subjects;  // (protocol, subject)
  for (const auto& [protocol, list] : subjects) {
    auto rng = prng_for(seed, "subjects\n" + protocol);
    for (const auto i : draw(rng, list.size(), items)) kept_subjects.insert({protocol, list[i]});
  }
  // Candidates, then one per (protocol, subject, slot) group.
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<std::size_t>> groups;
  std::vector<bool> keep(all.size(), false);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const auto& q = all[i];
    if (!q.subject.empty() && !kept_subjects.contains({q.protocol, q.subject})) continue;
    if (q.slot.empty())
      keep[i] = true;
    else
      groups[{q.protocol, q.subject, q.slot}].push_back(i);
  }
  for (const auto& [group, members] : groups) {
    const auto& [protocol, subject, slot] = group;
    auto rng = prng_for(seed, "slot\n" + protocol + "\n" + subject + "\n" + slot);
    keep[members[draw(rng, members.size(), 1).front()]] = true;
  }
  std::vector<question> out;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (keep[i]) out.push_back(all[i]);
  }
  return out;
}

std::string gradescope_variant_seed(const std::string& metadata_path) {
  std::ifstream in(metadata_path, std::ios::binary);
  if (!in) throw netlib::app::usage_error(metadata_path + ": cannot open Gradescope's submission metadata");
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  std::vector<std::string> emails;
  if (doc.is_object() && doc.contains("users") && doc["users"].is_array()) {
    for (const auto& u : doc["users"]) {
      if (u.is_object() && u.contains("email") && u["email"].is_string()) {
        auto e = u["email"].get<std::string>();
        std::transform(e.begin(), e.end(), e.begin(), [](char c) { return netlib::ascii::to_lower(c); });
        if (!e.empty()) emails.push_back(e);
      }
    }
  }
  if (emails.empty()) {
    throw netlib::app::usage_error(fmt::format(
        "{}: no users[].email (expected Gradescope's /autograder/submission_metadata.json)", metadata_path));
  }
  return *std::min_element(emails.begin(), emails.end());
}

}  // namespace netlab::grade
