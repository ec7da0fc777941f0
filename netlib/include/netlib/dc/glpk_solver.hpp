#pragma once
// The linear-program solver behind netlib::dc's traffic engineering: GLPK's simplex method
// (Debian's libglpk-dev). The only file of the data-centre code that uses a solver library
// (docs/architecture.md, "Data-centre core").
#include "netlib/dc/lp.hpp"

namespace netlib::dc {

class glpk_solver final : public lp_solver {
 public:
  // GLPK's own limit on simplex time, in seconds (0: none).
  explicit glpk_solver(double time_limit_s = 0) : time_limit_s_(time_limit_s) {}
  [[nodiscard]] lp_solution solve(const linear_program& lp) const override;

 private:
  double time_limit_s_;
};

}  // namespace netlib::dc
