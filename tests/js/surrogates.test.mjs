// Text with lone UTF-16 surrogates: the wasm engine answers exactly what the native CLI answers for the same text
// written as WTF-8 bytes (invalid_json), and never swallows the character after the surrogate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fixtureCases, nodeEngine } from './node-engine.mjs';

const cli = new URL('../../build/native/parascope', import.meta.url).pathname;
const native = (bytes) => spawnSync(cli, { input: bytes }).stdout.toString('utf8').trimEnd();

/** Independent oracle: UTF-8, with a lone surrogate as its own 3 bytes. */
function wtf8(text) {
  const out = [];
  for (const ch of text)
    out.push(
      ...Buffer.from(
        ch.length === 1 && /[\uD800-\uDFFF]/.test(ch)
          ? [0xe0 | (ch.charCodeAt(0) >> 12), 0x80 | ((ch.charCodeAt(0) >> 6) & 63), 0x80 | (ch.charCodeAt(0) & 63)]
          : Buffer.from(ch, 'utf8'),
      ),
    );
  return Buffer.from(out);
}

/** Variants of a request text with a lone surrogate: before a closing quote (what Embind used to swallow), in a
 *  value, as the whole op, after a high surrogate's partner is cut off, and a reversed pair. */
function variants(text) {
  const quote = text.indexOf('"', 2);
  return [
    text.slice(0, quote) + '\uD800' + text.slice(quote),
    text.replace('"op":"', '"op":"\uDC00'),
    '{"op":"\uDBFF"}',
    text + '\uD83D',
    '{"op":"version","x":"\uDE00\uD83D"}',
    text.replace(/:"([a-z])/, ':"\uD800$1'),
  ];
}

test('callText answers text with lone surrogates exactly as the native CLI answers its WTF-8 bytes', async () => {
  const engine = await nodeEngine();
  const cases = (await fixtureCases()).filter((_, i) => i % 4 === 0); // a spread over every file and op
  let compared = 0;
  for (const c of cases) {
    // A variant whose replace found nothing (a request without "op") has no surrogate: not this test's case.
    for (const text of variants(c.request).filter((v) => /[\uD800-\uDFFF]/.test(v))) {
      const wasm = engine.callText(text);
      assert.equal(wasm, native(wtf8(text)), `${c.file}: ${c.name}: ${JSON.stringify(text).slice(0, 80)}`);
      assert.equal(JSON.parse(wasm).error.code, 'invalid_json');
      compared++;
    }
  }
  assert.ok(compared >= 100, `compared ${compared}`);
});

test('the invalid_json answer says why in plain words', async () => {
  const engine = await nodeEngine();
  const answer = JSON.parse(engine.callText('{"op":"\uD800"}'));
  assert.equal(answer.error.code, 'invalid_json');
  assert.match(answer.error.message, /lone UTF-16 surrogate/);
});

test('call() with a lone surrogate in a value is refused as invalid_json (JSON.stringify escapes it), as natively', async () => {
  const engine = await nodeEngine();
  const request = { op: 'mfu', model: 'gpt2-124m\uD800', hardware: 'a100-40gb', gpus: 1, tokens_per_second: 1 };
  assert.throws(
    () => engine.call(request),
    (err) => err.name === 'EngineError' && err.code === 'invalid_json',
  );
  assert.equal(engine.callText(JSON.stringify(request)), native(Buffer.from(JSON.stringify(request))));
});

test('well-formed text with astral characters still goes through unchanged', async () => {
  const engine = await nodeEngine();
  const text = '{"op":"version","note":"\uD83D\uDE00"}';
  assert.equal(engine.callText(text), native(Buffer.from(text, 'utf8')));
});
