// How a widget asks the engine (one concern of the widget base, lib/widget.js): the page's one engine, loaded once
// and guarded so that a broken call (a trap, a bug) shows a note in this figure; the presets answer asked once per
// page; a refusal turned into a note under its key, with null for the widget to keep its last state.
import { EngineError, loadEngine } from './engine.js';
import { useEngineLists } from './model/engine-lists.js';

/** The presets answer's text per engine: asked once a page, however many widgets read it (enginePresets). */
const presetsTexts = new WeakMap();

/** The mixin: `Base` (with setNote and clearNote: lib/widget-attributes.js) that asks the engine. */
export const WithEngine = (Base) =>
  class extends Base {
    #engine = null;

    /**
     * Loads the page's engine (once per page: lib/engine.js) and keeps it, guarded, as this.engine. A figure whose ops
     * only the planner's module answers (run, nccl_fit) names that module's loader instead (`static engineLoader =
     * loadPlannerEngine`), so the other figures' files do not carry it.
     */
    async connectEngine() {
      this.#engine = await (this.constructor.engineLoader ?? loadEngine)();
      this.engine = this.#guarded(this.#engine);
    }

    /**
     * The page's engine as this widget sees it: a call that fails other than by a refusal (the engine broke: a trap, a
     * bug) shows a note in this figure, wherever in the widget the call was made, and still throws.
     */
    #guarded(engine) {
      const guard =
        (method) =>
        (...args) => {
          try {
            return method(...args);
          } catch (err) {
            if (!(err instanceof EngineError)) {
              this.setNote(
                'engine-failed',
                `The engine failed on these settings (${err.message}); this figure cannot update.`,
                'error',
              );
            }
            throw err;
          }
        };
      return {
        ...engine,
        call: guard(engine.call),
        callWithAttachment: guard(engine.callWithAttachment),
        callText: guard(engine.callText),
      };
    }

    /**
     * The engine's presets answer (hardware, models, schedules, every list of names it accepts): asked of the engine
     * once per page and shared by every widget (it never changes); each call returns a fresh copy to read or keep.
     */
    enginePresets() {
      let text = presetsTexts.get(this.#engine);
      if (text === undefined) {
        text = this.engine.callText('{"op":"presets"}');
        if (!JSON.parse(text).error) presetsTexts.set(this.#engine, text);
      }
      const answer = JSON.parse(text);
      if (answer.error) throw new EngineError(answer.error);
      useEngineLists(answer); // the schedules, modes and objectives the pure modules read (lib/model/engine-lists.js)
      return answer;
    }

    /** Asks the engine; on a refusal shows the engine's message under `key` and returns null. */
    ask(request, key = 'engine') {
      return this.#attempt(key, () => this.engine.call(request));
    }

    /**
     * Like ask, for requests whose numbers come beside the JSON: { response, attachment } or null on a refusal. `reuse`:
     * an earlier attachment whose memory may be overwritten (engine.callWithAttachment).
     */
    askWithAttachment(request, key = 'engine', reuse = null) {
      return this.#attempt(key, () => this.engine.callWithAttachment(request, reuse));
    }

    #attempt(key, question) {
      try {
        const answer = question();
        this.clearNote(key);
        return answer;
      } catch (err) {
        if (!(err instanceof EngineError)) return null; // the engine broke (noted by #guarded): keep the last state
        this.setNote(key, `The engine refused these settings: ${err.message}`, 'warning');
        return null;
      }
    }
  };
