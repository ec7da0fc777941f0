#pragma once
// A linear program as plain data, and the one interface that solves it (docs/architecture.md,
// "Data-centre core"). The traffic-engineering code builds programs and reads solutions; the
// solver is injected, so netlib::dc stays free of any solver library. netlib::dc_glpk
// (dc/glpk_solver.hpp) solves them with GLPK.
//
//   minimise  Σ objective[j]·x[j]
//   subject to  row.lower <= Σ row.terms·x <= row.upper   for every row
//               lower[j] <= x[j] <= upper[j]
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace netlib::dc {

inline constexpr double lp_infinity = std::numeric_limits<double>::infinity();

struct lp_row {
  std::vector<std::pair<std::uint32_t, double>> terms;  // (column, coefficient)
  double lower = -lp_infinity;
  double upper = lp_infinity;
};

struct linear_program {
  std::vector<double> objective;  // one per column
  std::vector<double> lower;      // one per column
  std::vector<double> upper;
  std::vector<lp_row> rows;
  // Solve by an interior-point method: when many solutions are optimal it returns one in the middle
  // of them (the analytic centre of the optimal face, where the central path ends), not a vertex.
  bool interior = false;

  // A new column with bounds and an objective coefficient; returns its index.
  std::uint32_t add_column(double cost = 0, double lo = 0, double hi = lp_infinity) {
    objective.push_back(cost);
    lower.push_back(lo);
    upper.push_back(hi);
    return static_cast<std::uint32_t>(objective.size() - 1);
  }
  [[nodiscard]] std::size_t columns() const noexcept { return objective.size(); }
};

enum class lp_status : std::uint8_t { optimal, infeasible, unbounded, failed };

struct lp_solution {
  lp_status status = lp_status::failed;
  std::string message;  // the solver's reason when not optimal
  double objective = 0;
  std::vector<double> x;
};

class lp_solver {
 public:
  virtual ~lp_solver() = default;
  // May be called from several threads at once.
  [[nodiscard]] virtual lp_solution solve(const linear_program& lp) const = 0;
};

}  // namespace netlib::dc
