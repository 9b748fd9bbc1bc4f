// The break-even chart's points: for each sequence length the engine answered, a forward ring step's attention time
// and its K/V transfer time on the same link (context_ring's p2p.forward.steps[0]). Where the two curves cross is the
// engine's break_even.sequence, marked as the engine gives it. Pure.

/** answers: [{ seq, answer }] (answer null where refused) -> [{ seq, compute, transfer }] of the answered ones. */
export function curvePoints(answers) {
  return answers
    .filter((a) => a.answer)
    .map(({ seq, answer }) => {
      const s = answer.p2p.forward.steps[0];
      return { seq, compute: s.compute_time, transfer: s.transfer_time };
    });
}
