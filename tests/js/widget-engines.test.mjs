// Each widget's own engine (lib/widget-engines.js picks it for a widget embedded alone; CMakeLists.txt links it with
// the ops PARASCOPE_WASM_OPS_<module> lists): it answers every fixture of the ops it carries byte for byte as the native
// engine does, refuses each other op by naming the engine that answers it, and carries every op its widget's code asks.
// Its presets answer is the native one without the citations (hardware "sources", models "source": compiled in only
// where something reads them, engine/embed_data.cmake), which no widget's code reads.
// The ops a module carries are read from the module itself (its refusals), never from a second list kept here.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { fixtureCases, nodeModuleEngine, wasmModuleNames } from './node-engine.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { WIDGET_ENGINES } = await import('../../web/lib/widget-engines.js');
const { figureOf, filesOf } = await import('../../web/widgets/index.js');
const cases = await fixtureCases();
const names = await wasmModuleNames();
const engines = new Map(await Promise.all(names.map(async (name) => [name, await nodeModuleEngine(name)])));

/** The exact refusal of an op that engine `name` leaves to engine `elsewhere`. */
const refusal = (op, elsewhere, name) =>
  JSON.stringify({
    error: {
      code: 'unknown_op',
      field: 'op',
      message: `the ${op} op is answered by the ${elsewhere} engine (wasm/${elsewhere}.wasm), not by this one (${name})`,
    },
  });
const ELSEWHERE = /"message":"the ([a-z_]+) op is answered by the ([a-z-]+) engine/;
/**
 * A module answering part of an op (the timeline module: "columns" only; the memory module: "binary" columns only)
 * refuses the rest naming who answers it, in the field that asked it: [, field, op, value left, engine, this, written].
 */
const FORMAT_ELSEWHERE =
  /^\{"error":\{"code":"unknown_op","field":"([a-z_]+)","message":"the ([a-z_]+) op's \\"([a-z]+)\\" \1 is answered by the ([a-z-]+) engine \(wasm\/\4\.wasm\), not by this one \(([a-z-]+)\), which writes \\"([a-z]+)\\""\}\}$/;

// Every op of the API, as the figures' engine lists it when asked for one it does not know.
const unknown = JSON.parse(engines.get('parascope').callText('{"op":"no_such_op"}')).error.message;
const OPS = unknown.slice(unknown.indexOf('ops: ') + 5).split(', ');

/** op -> the engine it is left to, for each op engine `name` does not carry. */
const leftOut = (name) =>
  new Map(
    OPS.flatMap((op) => {
      const m = engines.get(name).callText(JSON.stringify({ op })).match(ELSEWHERE);
      return m ? [[op, m[2]]] : [];
    }),
  );
const carried = (name) => OPS.filter((op) => !leftOut(name).has(op));

/** Whether module `name` is a widget's own (it compiles in the presets without their citations). */
const widgetModule = (name) => Object.values(WIDGET_ENGINES).some(([own]) => own === name);

/** A presets answer without the citations: each hardware preset's "sources", each model's "source". */
function withoutCitations(answer) {
  const copy = structuredClone(answer);
  for (const h of copy.hardware) delete h.sources;
  for (const m of copy.models) delete m.source;
  return copy;
}

test("the modules: the figures', the planner's, and each widget's own, none unused", () => {
  assert.ok(OPS.length >= 12, unknown);
  const own = new Set(Object.values(WIDGET_ENGINES).map(([name]) => name));
  for (const name of own) assert.ok(names.includes(name), `dist/wasm has no ${name}.wasm`);
  // The figures' module serves the article; the planner's, the planner's worker (and the article's run and nccl_fit);
  // <parascope-run> and <parascope-nccl> embedded alone run a module of their own (widgets/index.js).
  assert.deepEqual(
    names.filter((n) => !own.has(n)),
    ['parascope', 'parascope-planner'],
  );
  assert.equal(WIDGET_ENGINES['parascope-run'][0], 'parascope-run-engine');
  assert.deepEqual(carried('parascope-planner'), OPS);
  // The planner's own ops (CMakeLists.txt leaves them out of the figures' module for its bytes).
  const plannerOnly = new Set(['plan', 'config_import', 'config_export', 'run', 'nccl_fit']);
  assert.deepEqual(
    carried('parascope'),
    OPS.filter((op) => !plannerOnly.has(op)),
  );
});

for (const name of names) {
  test(`${name}: carries version and presets, and refuses each other op naming an engine that answers it`, () => {
    const ops = carried(name);
    assert.ok(ops.includes('version') && ops.includes('presets'), ops.join());
    for (const [op, elsewhere] of leftOut(name)) {
      assert.equal(engines.get(name).callText(JSON.stringify({ op })), refusal(op, elsewhere, name));
      assert.ok(engines.has(elsewhere) && carried(elsewhere).includes(op), `${elsewhere} does not answer ${op}`);
      assert.throws(
        () => engines.get(name).call({ op }),
        (err) => err.code === 'unknown_op' && err.field === 'op',
      );
    }
  });

  test(`${name}: every fixture of an op it carries, byte for byte; the others refused by name`, () => {
    const ops = new Set(carried(name));
    const formatsLeft = new Set();
    let answered = 0;
    let pointed = 0; // requests in a format it leaves out, refused naming the engine that answers them as native does
    for (const c of cases) {
      const got = engines.get(name).callText(c.request);
      const op = c.request.match(/"op":"([a-z_]+)"/)?.[1] ?? null;
      if (got === c.response) {
        if (op && ops.has(op) && op !== 'version' && op !== 'presets') answered += 1;
        continue;
      }
      if (op === 'presets' && widgetModule(name) && !JSON.parse(got).error) {
        const native = JSON.parse(c.response);
        assert.ok(
          native.hardware.some((h) => h.sources) && native.models.some((m) => m.source),
          `${c.file}: ${c.name}`,
        );
        assert.deepEqual(JSON.parse(got), withoutCitations(native), `${c.file}: ${c.name}`);
        continue;
      }
      // A format of a carried op it leaves out: refused naming a module that answers this very request as native does.
      const f = got.match(FORMAT_ELSEWHERE);
      if (f && ops.has(f[2]) && f[5] === name) {
        assert.notEqual(f[3], f[6], `${c.file}: ${c.name}`);
        assert.equal(engines.get(f[4]).callText(c.request), c.response, `${c.file}: ${c.name} (${f[4]})`);
        formatsLeft.add(f[3]);
        pointed += 1;
        continue;
      }
      // Only a request for an op it leaves out may be answered otherwise: with that op's refusal.
      const m = got.match(ELSEWHERE);
      assert.ok(
        m && !ops.has(m[1]),
        `${c.file}: ${c.name}: ${got.slice(0, 200)} (expected ${c.response.slice(0, 200)})`,
      );
      assert.equal(got, refusal(m[1], leftOut(name).get(m[1]), name), `${c.file}: ${c.name}`);
    }
    if (name !== 'parascope-planner')
      assert.ok(
        answered >= 3 || (answered >= 2 && pointed >= 1),
        `${name} answered only ${answered} fixtures of its ops`,
      );
    // Only <parascope-step>'s and <parascope-memory>'s modules leave formats to the figures' engine (CMakeLists.txt,
    // PARASCOPE_WASM_HANDLER_*).
    const LEFT = { 'parascope-timeline-engine': ['chrome', 'objects'], 'parascope-memory-engine': ['text'] };
    assert.deepEqual([...formatsLeft].sort(), LEFT[name] ?? [], `${name} refuses formats`);
  });
}

/** The text of a file and of each file it imports under web/, at any depth: Map path -> text. */
async function codeOf(file, seen = new Map()) {
  if (seen.has(file)) return seen;
  const text = await readFile(file, 'utf8');
  seen.set(file, text);
  for (const [, rel] of text.matchAll(/(?:from|import\()\s*'(\.[^']+\.js)'/g))
    await codeOf(resolve(dirname(file), rel), seen);
  return seen;
}

/** A figure's element module, by its tag (widgets/index.js). */
const elementOf = (tag) => join(root, 'web/widgets', filesOf(figureOf(tag)).module);

/** The ops a widget's code asks (`op: 'x'` or `"op":"x"`). */
const opsAsked = (code) =>
  new Set(
    [...code.values()].flatMap((text) =>
      [...text.matchAll(/\bop: ?'([a-z_]+)'|"op":"([a-z_]+)"/g)].map((m) => m[1] ?? m[2]),
    ),
  );

// What the widgets' code reads named `source`: none is a preset's citation (their modules compile none in).
const NOT_CITATIONS = new Set([
  'pub.source', // <parascope-mfu>: a published run's reference, from widgets/mfu/model/presets.js
  'cf.source', // <parascope-bubble>: the pipeline op's closed form (its paper)
  'run.source', // <parascope-track>: a published run's publication, from web/data/track-record.json
  'record.sources', // <parascope-track>: the record's citations per table, from the same file
  'this.record.sources', // <parascope-track>'s element: the same
  'detail.source', // <parascope-mfu>, <parascope-step>: the figure that sent a parascope:focus event (lib/focus.js)
]);

for (const [tag, [name]] of Object.entries(WIDGET_ENGINES)) {
  test(`<${tag}> embedded alone runs ${name}, which answers every op its code asks`, async () => {
    const asked = opsAsked(await codeOf(elementOf(tag)));
    // plan is asked only by planSearch (lib/engine.js), which runs in the planner's worker on the planner's engine.
    asked.delete('plan');
    assert.ok(asked.has('presets') && asked.size >= 2, [...asked].join());
    const ops = carried(name);
    for (const op of asked)
      assert.ok(ops.includes(op), `<${tag}> asks ${op}, which ${name} leaves to ${leftOut(name).get(op)}`);
  });

  test(`<${tag}>'s code reads no preset citation, which ${name} leaves out`, async () => {
    for (const [file, text] of await codeOf(elementOf(tag))) {
      for (const m of text.matchAll(/[\w$.\]\[]*\bsources?\b/g)) {
        // A key written (`source: 'x'`) or a word in a comment or a string is no read; a property read must be listed.
        const read =
          /\.sources?$|\[['"]sources?['"]\]$/.test(m[0]) || /^\s*[,}=]/.test(text.slice(m.index + m[0].length));
        if (read)
          assert.ok(
            NOT_CITATIONS.has(m[0]),
            `${file}: reads ${m[0]}, which ${name} does not have (engine/embed_data.cmake)`,
          );
      }
    }
  });
}
