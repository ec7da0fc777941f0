// Theory of operation: the program is loaded into a fresh GLPK problem as (row, column, value)
// triplets, solved with the primal simplex method after GLPK's presolver and scaling (or, when the
// program asks, GLPK's interior-point method), and copied out; the problem object is always freed.
// GLPK keeps its state per thread (Debian's libglpk is built with thread-local storage), and every
// solve has its own problem, so solves may run in several threads at once. That per-thread state
// (glp_init_env's environment, made on a thread's first GLPK call) lives until glp_free_env: each
// solve frees it on the way out, after its problem, or every worker thread of evaluate_te would
// leave its environment behind when it ends (LeakSanitizer reported 5,296 bytes per thread).
// GLPK's terminal output is switched off, so the solver prints nothing.
#include "netlib/dc/glpk_solver.hpp"

#include <glpk.h>

#include <cmath>
#include <memory>
#include <string>

namespace netlib::dc {
namespace {

int bound_type(double lo, double hi) {
  const bool has_lo = std::isfinite(lo), has_hi = std::isfinite(hi);
  if (has_lo && has_hi) return lo == hi ? GLP_FX : GLP_DB;
  if (has_lo) return GLP_LO;
  if (has_hi) return GLP_UP;
  return GLP_FR;
}

double finite_or_zero(double v) {
  return std::isfinite(v) ? v : 0.0;
}

// Frees this thread's GLPK environment; declared before the problem, so destroyed after it.
struct environment_release {
  environment_release() = default;
  environment_release(const environment_release&) = delete;
  environment_release& operator=(const environment_release&) = delete;
  ~environment_release() { glp_free_env(); }
};

struct problem_deleter {
  void operator()(glp_prob* p) const noexcept { glp_delete_prob(p); }
};

// Reads a finished solve: its status and, when optimal, the objective and every column. The
// simplex's and the interior-point method's accessors differ only in name (glp_get_status or
// glp_ipt_status, and so on); the interior-point status is never GLP_UNBND.
void read_solution(glp_prob* p, int (*status)(glp_prob*), double (*objective)(glp_prob*),
                   double (*column)(glp_prob*, int), lp_solution& out) {
  switch (status(p)) {
    case GLP_OPT:
      out.status = lp_status::optimal;
      break;
    case GLP_NOFEAS:
      out.status = lp_status::infeasible;
      out.message = "infeasible";
      return;
    case GLP_UNBND:
      out.status = lp_status::unbounded;
      out.message = "unbounded";
      return;
    default:
      out.message = "no optimal solution found";
      return;
  }
  out.objective = objective(p);
  const int ncols = glp_get_num_cols(p);
  out.x.resize(static_cast<std::size_t>(ncols));
  for (int j = 1; j <= ncols; ++j) out.x[static_cast<std::size_t>(j - 1)] = column(p, j);
}

}  // namespace

lp_solution glpk_solver::solve(const linear_program& lp) const {
  lp_solution out;
  if (lp.columns() == 0) {
    out.status = lp_status::optimal;
    return out;
  }
  const environment_release release_environment_at_end;
  glp_term_out(GLP_OFF);
  std::unique_ptr<glp_prob, problem_deleter> p(glp_create_prob());
  glp_set_obj_dir(p.get(), GLP_MIN);
  const int ncols = static_cast<int>(lp.columns());
  glp_add_cols(p.get(), ncols);
  for (int j = 1; j <= ncols; ++j) {
    const auto c = static_cast<std::size_t>(j - 1);
    glp_set_col_bnds(p.get(), j, bound_type(lp.lower[c], lp.upper[c]), finite_or_zero(lp.lower[c]),
                     finite_or_zero(lp.upper[c]));
    glp_set_obj_coef(p.get(), j, lp.objective[c]);
  }
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0};
  if (!lp.rows.empty()) {
    glp_add_rows(p.get(), static_cast<int>(lp.rows.size()));
    for (std::size_t r = 0; r < lp.rows.size(); ++r) {
      const auto& row = lp.rows[r];
      const int i = static_cast<int>(r + 1);
      glp_set_row_bnds(p.get(), i, bound_type(row.lower, row.upper), finite_or_zero(row.lower),
                       finite_or_zero(row.upper));
      for (const auto& [col, coef] : row.terms) {
        if (col >= lp.columns()) {
          out.message = "a row names a column that does not exist";
          return out;
        }
        ia.push_back(i);
        ja.push_back(static_cast<int>(col) + 1);
        ar.push_back(coef);
      }
    }
    glp_load_matrix(p.get(), static_cast<int>(ia.size() - 1), ia.data(), ja.data(), ar.data());
  }
  if (lp.interior) {
    glp_iptcp ip;
    glp_init_iptcp(&ip);
    ip.msg_lev = GLP_MSG_OFF;
    const int rc = glp_interior(p.get(), &ip);
    if (rc != 0) {
      out.message = rc == GLP_ENOCVG ? "the interior-point method did not converge"
                                     : "GLPK's interior-point method failed (code " + std::to_string(rc) + ")";
      return out;
    }
    read_solution(p.get(), glp_ipt_status, glp_ipt_obj_val, glp_ipt_col_prim, out);
    return out;
  }
  glp_smcp params;
  glp_init_smcp(&params);
  params.msg_lev = GLP_MSG_OFF;
  params.presolve = GLP_ON;
  if (time_limit_s_ > 0) params.tm_lim = static_cast<int>(time_limit_s_ * 1000);
  glp_scale_prob(p.get(), GLP_SF_AUTO);
  const int rc = glp_simplex(p.get(), &params);
  if (rc != 0) {
    switch (rc) {
      case GLP_ENOPFS:
        out.status = lp_status::infeasible;
        out.message = "no primal feasible solution";
        break;
      case GLP_ENODFS:
        out.status = lp_status::unbounded;
        out.message = "no dual feasible solution (unbounded)";
        break;
      case GLP_ETMLIM:
        out.message = "the solver's time limit ran out";
        break;
      default:
        out.message = "GLPK's simplex method failed (code " + std::to_string(rc) + ")";
        break;
    }
    return out;
  }
  read_solution(p.get(), glp_get_status, glp_get_obj_val, glp_get_col_prim, out);
  return out;
}

}  // namespace netlib::dc
