// The native CLI's `--kineto FILE [--step N]` (engine/cli/kineto.cpp) against the step figure's answer
// (web/widgets/step/model/kineto.js's traceStep) on our fixtures (tests/fixtures/kineto/), gzipped too: the same JSON,
// number for number; both classify by engine/data/kineto-rules.json. Refusals alike: not JSON, no events list, no step.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

import { traceStep } from '../../web/widgets/step/model/kineto.js';

const cli = new URL('../../build/native/parascope', import.meta.url).pathname;
const fixture = (name) => new URL(`../fixtures/kineto/${name}`, import.meta.url).pathname;
const run = (...args) => {
  const r = spawnSync(cli, args, { encoding: 'utf8' });
  return { status: r.status, out: r.stdout ? JSON.parse(r.stdout) : null, err: r.stderr };
};
const dir = mkdtempSync(join(tmpdir(), 'parascope-kineto-'));
const write = (name, bytes) => {
  writeFileSync(join(dir, name), bytes);
  return join(dir, name);
};

test('every step of every fixture: the CLI prints the figure’s answer, plain and gzipped', () => {
  const plain = ['two-steps.json', 'array-no-steps.json'];
  for (const name of plain) {
    const text = readFileSync(fixture(name), 'utf8');
    const trace = JSON.parse(text);
    const gz = write(`${name}.gz`, gzipSync(text));
    const whole = traceStep(trace);
    const picks = [[undefined, []], ...whole.steps.map((s, i) => [i, ['--step', String(s.number)]])];
    for (const [pick, args] of picks) {
      const want = traceStep(trace, pick);
      for (const file of [fixture(name), gz]) {
        const got = run('--kineto', file, ...args);
        assert.equal(got.status, 0, got.err);
        assert.deepEqual(got.out, JSON.parse(JSON.stringify(want)), `${file} ${args.join(' ')}`);
      }
    }
  }
  const shipped = run('--kineto', fixture('two-steps.json.gz'));
  assert.deepEqual(
    shipped.out,
    JSON.parse(JSON.stringify(traceStep(JSON.parse(readFileSync(fixture('two-steps.json')))))),
  );
});

test('refusals: not JSON, truncated gzip, no events list, no such step, a missing file', () => {
  const bad = run('--kineto', write('bad.json', '{"traceEvents": [{"ph": "X",}]}'));
  assert.equal(bad.status, 2);
  assert.equal(bad.out.error.code, 'not_json');
  const cut = readFileSync(fixture('two-steps.json.gz')).subarray(0, 300);
  assert.equal(run('--kineto', write('cut.json.gz', cut)).out.error.code, 'unreadable');
  assert.equal(run('--kineto', write('none.json', '{"traceEvents": 5}')).out.error.code, 'no_events');
  assert.equal(run('--kineto', write('empty.json', '[]')).out.error.code, 'no_gpu_events');
  const absent = run('--kineto', fixture('two-steps.json'), '--step', '9');
  assert.deepEqual([absent.status, absent.out.error.code, absent.out.error.field], [2, 'no_step', '--kineto']);
  const missing = spawnSync(cli, ['--kineto', join(dir, 'nothing.json')], { encoding: 'utf8' });
  assert.equal(missing.status, 1);
  assert.match(missing.stderr, /cannot read/);
  const usage = spawnSync(cli, ['--kineto', fixture('two-steps.json'), '--step', 'x'], { encoding: 'utf8' });
  assert.equal(usage.status, 1);
  assert.match(usage.stderr, /--step takes a step number/);
});
