// A typed consumer of the package (tsc --strict, moduleResolution bundler, React 19's JSX): what must compile, and
// (each under @ts-expect-error, which fails the build when nothing is wrong) what must not.
import { loadEngine, registered, setAssetBase, type HardwareId, type PipelineResponse } from 'parascope';
import { loadPlannerEngine } from 'parascope/engine';
import type {} from 'parascope/react';

setAssetBase('/parascope/');
const engine = await loadEngine();
const answer: PipelineResponse = engine.call({ op: 'pipeline', schedule: '1f1b', stages: 4, microbatches: 8 });
export const share: number = answer.efficiency;
export const planner = await loadPlannerEngine();
export const ready: boolean | undefined = (await registered)['parascope-planner'];

const figure = document.querySelector('parascope-planner');
figure?.startNow();
export const chip: HardwareId = 'h100-sxm';
// @ts-expect-error: no accelerator of that name in the engine's presets
export const unknown: HardwareId = 'h900';

export const post = (
  <article>
    <parascope-bubble stages="8" microbatches={32} schedule="1f1b" forward-only className="wide" data-note="x" />
    <parascope-planner model="gpt3-175b" gpus="64" objective="mfu" />
    {/* @ts-expect-error: misspelt attribute */}
    <parascope-ring gpu="4" />
    {/* @ts-expect-error: not a schedule */}
    <parascope-bubble schedule="2f2b" />
  </article>
);
