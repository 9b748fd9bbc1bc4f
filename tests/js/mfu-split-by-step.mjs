// The mfu figure's split logic as it was before `step_check`: the same functions (web/widgets/mfu/model/split.js), each
// check asked as the whole `step` it stands for (an answer counts as a pass, a refusal is the same refusal). The oracle
// the check path must equal (tests/js/mfu-offers-equal.test.mjs) and the "before" of tests/bench/mfu-release.mjs.
import { offered, resolve, settle } from '../../web/widgets/mfu/model/split.js';

/** `ask` with every step_check request asked as the step request it checks. */
const askingSteps = (ask) => (request) => ask(request.op === 'step_check' ? { ...request, op: 'step' } : request);

export const resolveByStep = (ask, ...args) => resolve(askingSteps(ask), ...args);
export const offeredByStep = (ask, ...args) => offered(askingSteps(ask), ...args);
export const settleByStep = (ask, ...args) => settle(askingSteps(ask), ...args);
