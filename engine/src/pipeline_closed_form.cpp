// The bubble each pipeline schedule is known for, from its paper, evaluated at a spec's numbers. These are test oracles
// and reading aids: the engine's metrics come from the simulated timeline, never from here.
#include <string>

#include "number_text.hpp"
#include "pipeline_detail.hpp"
#include "schedule_registry.hpp"

namespace parascope::detail {

namespace {

std::string num(double x) { return format_number(x); }
std::string num(int x) { return std::to_string(x); }

/// "a/b" with the fraction reduced to its value: "7/39 = 0.179487".
std::string ratio(double a, double b) { return num(a) + "/" + num(b); }

/// The spec's p, m, v, f, b, w.
struct Numbers {
  int p, m, v;
  double f, b, w;
};
Numbers numbers(const PipelineSpec& spec) {
  return {spec.stages, spec.microbatches, spec.chunks, spec.times.f, spec.times.b, spec.times.w};
}

/// Every closed form here is derived without stage-to-stage sends: with comm > 0 none is quoted.
bool no_sends(const PipelineSpec& spec) { return spec.times.comm == 0; }

/// Quotes `value` with its worked numbers; outside the form's condition nothing is quoted (value null, substituted
/// empty), so no number the simulation contradicts is ever shown. +0.0 turns a −0 into 0.
void quote(PipelineClosedForm& out, bool holds, std::string substituted, double value) {
  if (!holds) return;
  out.substituted = std::move(substituted);
  out.value = value + 0.0;
}

}  // namespace

ClosedFormFn closed_form_of(Schedule schedule) {
  switch (schedule) {
    case Schedule::gpipe:
    case Schedule::one_f_one_b:
      return fill_drain_closed_form;
    case Schedule::interleaved:
      return interleaved_closed_form;
    case Schedule::zb_h1:
      return zb_h1_closed_form;
    case Schedule::zb_h2:
      return zb_h2_closed_form;
    case Schedule::dualpipe:
      return dualpipe_closed_form;
  }
  return fill_drain_closed_form;  // unreachable: every Schedule is a case above (-Wswitch names a new one)
}

PipelineClosedForm closed_form(const PipelineSpec& spec) {
  PipelineClosedForm out;
  out.measure = "bubble_fraction";
  closed_form_of(spec.schedule)(spec, out);
  return out;
}

void fill_drain_closed_form(const PipelineSpec& spec, PipelineClosedForm& out) {
  const auto [p, m, v, f, b, w] = numbers(spec);

  // Fill and drain: (p−1) op-slots of idle per stage against m of work. GPipe (Huang et al. 2019), Sec. 2.3:
  // bubble O((K−1)/(M+K−1)); Narayanan et al. 2021 (Megatron-LM, SC'21), Sec. 2.2.1: bubble time (p−1)(t_f+t_b)
  // against ideal m(t_f+t_b). The same holds for the forward half alone.
  out.formula = "(p−1)/(m+p−1)";
  out.condition = "comm = 0 (every stage takes the same f and b, whatever they are)";
  quote(out, no_sends(spec), "(" + num(p) + "−1)/(" + num(m) + "+" + num(p) + "−1) = " + ratio(p - 1, m + p - 1),
        double(p - 1) / double(m + p - 1));
  out.source = spec.schedule == Schedule::gpipe
                   ? "Huang et al. 2019 (GPipe), Sec. 2.3; Narayanan et al. 2021 (Megatron-LM), Sec. 2.2.1"
                   : "Narayanan et al. 2021 (Megatron-LM, PipeDream-Flush 1F1B), Sec. 2.2.1";
}

void interleaved_closed_form(const PipelineSpec& spec, PipelineClosedForm& out) {
  const auto [p, m, v, f, b, w] = numbers(spec);

  // Narayanan et al. 2021, Sec. 2.2.2: with v chunks per stage the bubble shrinks v-fold, bubble/ideal =
  // (1/v)·(p−1)/m; as a share of the whole iteration, (p−1)/(v·m + p−1).
  out.formula = "(p−1)/(v·m+p−1)";
  out.condition = "m a multiple of p; comm = 0 (every chunk takes the same f and b, whatever they are)";
  quote(out, (m % p == 0 || p == 1) && no_sends(spec),
        "(" + num(p) + "−1)/(" + num(v) + "·" + num(m) + "+" + num(p) + "−1) = " + ratio(p - 1, double(v) * m + p - 1),
        double(p - 1) / (double(v) * m + p - 1));
  out.source = "Narayanan et al. 2021 (Megatron-LM), Sec. 2.2.2: bubble/ideal = (1/v)·(p−1)/m";
}

void zb_h1_closed_form(const PipelineSpec& spec, PipelineClosedForm& out) {
  const auto [p, m, v, f, b, w] = numbers(spec);

  // Qi et al. 2024 (Zero Bubble Pipeline Parallelism, ICLR), Sec. 2.1: ZB-H1's bubble is (p−1)(T_F+T_B−T_W)
  // per stage (1F1B's is (p−1)(T_F+T_B+T_W)); DeepSeek-V3 report Table 2 writes it (PP−1)(F+B−2W) with B whole.
  // The drain's W's fill the waits for the next B exactly when no W is longer than an F or a B: w ≤ min(f, b) (a
  // longer W delays the B behind it; f = 1, b = 10^−6, w = 1 idles 0.158 of the step, not 1.9·10^−7). The seeded
  // property test (tests/engine/closed_form_property_test.cpp) holds the condition to the simulation.
  const double idle = double(p - 1) * (f + b - w);
  const double work = double(m) * (f + b + w);
  out.formula = "(p−1)(f+b−w) / (m(f+b+w) + (p−1)(f+b−w))";
  out.condition = "m ≥ p, w ≤ f, w ≤ b and comm = 0";
  quote(out, m >= p && w <= f && w <= b && no_sends(spec),
        "(" + num(p) + "−1)(" + num(f) + "+" + num(b) + "−" + num(w) + ") / (" + num(m) + "(" + num(f) + "+" + num(b) +
            "+" + num(w) + ") + " + num(idle) + ") = " + ratio(idle, work + idle),
        idle / (work + idle));
  out.source =
      "Qi et al. 2024 (Zero Bubble Pipeline Parallelism), Sec. 2.1, Fig. 3; DeepSeek-V3 report, Table 2 (ZB1P)";
}

void zb_h2_closed_form(const PipelineSpec& spec, PipelineClosedForm& out) {
  const auto [p, m, v, f, b, w] = numbers(spec);

  // Qi et al. 2024, Sec. 2.2, Fig. 4: with 2(p−s)−1 warm-up forwards the schedule is a parallelogram with no idle
  // time inside any stage's span; the optimizer-step synchronisation is removed (their Sec. 4) so that the next
  // iteration fills the slanted ends.
  out.formula = "0";
  out.measure = "steady_bubble_fraction";
  out.condition = "f = b = w, comm = 0, and m ≥ 2p − 1 so the first stage's 2p − 1 warm-up forwards exist";
  quote(out, f == b && b == w && no_sends(spec) && m >= 2 * p - 1, "0", 0.0);
  out.source = "Qi et al. 2024 (Zero Bubble Pipeline Parallelism), Sec. 2.2, Fig. 4";
}

void dualpipe_closed_form(const PipelineSpec& spec, PipelineClosedForm& out) {
  const auto [p, m, v, f, b, w] = numbers(spec);

  // DeepSeek-V3 technical report (2024), Sec. 3.2.1, Table 2: DualPipe's bubble is (PP/2−1)(F&B + B − 3W), with
  // B the whole backward and F&B a forward and a backward chunk run together. Here ops run one after the other, so
  // F&B = f + b + w and B = b + w: (p/2−1)(f + 2b − w) of idle per stage against m(f+b+w) of work. The table's
  // derivation takes a forward and an input-gradient chunk as long as each other (f = b) and a W no longer than
  // either; elsewhere the reference order idles otherwise (f = b = 3, w = 10 gives −0.003 by the formula, 0.017
  // simulated). With p = 2 there are no middle stages and both are 0. tests/engine/closed_form_property_test.cpp.
  const double idle = double(p / 2 - 1) * (f + 2 * b - w);  // p is even (validated)
  const double work = double(m) * (f + b + w);
  out.formula = "(p/2−1)(F&B + B − 3W) / (m(f+b+w) + that), F&B = f+b+w, B = b+w";
  out.condition = "p even, m even and ≥ 2p; comm = 0; f = b and w ≤ b (or p = 2); F&B not overlapped";
  quote(out, no_sends(spec) && (p == 2 || (f == b && w <= b)),
        "(" + num(p) + "/2−1)(" + num(f + b + w) + " + " + num(b + w) + " − 3·" + num(w) + ") / (" + num(m) + "·" +
            num(f + b + w) + " + " + num(idle) + ") = " + ratio(idle, work + idle),
        idle / (work + idle));
  out.source = "DeepSeek-AI 2024 (DeepSeek-V3 technical report), Sec. 3.2.1, Table 2";
}

}  // namespace parascope::detail
