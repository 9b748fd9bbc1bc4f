// A Kineto trace's JSON read as it arrives, in pieces of text: a small incremental tokenizer that walks the outer
// structure (`{"traceEvents": [ … ], "distributedInfo": {…}, …}`, or a bare array of events) and hands each event to
// a sink as soon as its closing brace arrives, parsed alone (JSON.parse of that event's text). Only the event being
// read is held, never the whole text nor the whole parsed trace. Malformed or truncated text throws an Error with
// code `not_json`, as JSON.parse of the whole would have refused it. Pure: strings in, calls out.

import { collector } from './kineto.js';

const notJson = (why) => Object.assign(new Error(`not JSON: ${why}`), { code: 'not_json' });

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** What each ASCII character is to the scanner (a table, not sets: the scan runs once per character of the trace). */
const [OTHER, SPACE, STRING, OPEN, CLOSE, COMMA] = [0, 1, 2, 3, 4, 5];
const CLASS = new Uint8Array(128);
for (const c of ' \t\n\r') CLASS[c.charCodeAt(0)] = SPACE;
for (const c of '{[') CLASS[c.charCodeAt(0)] = OPEN;
for (const c of '}]') CLASS[c.charCodeAt(0)] = CLOSE;
CLASS[QUOTE] = STRING;
CLASS[0x2c] = COMMA;
const kind = (c) => (c < 128 ? CLASS[c] : OTHER);

/**
 * A tokenizer feeding `sink`: `sink.event(e)` for each element of the top-level `traceEvents` array (or of a top-level
 * array), `sink.top(key, value)` for every other top-level key of the object (each parsed alone), `sink.shape(s)` once
 * the outer shape is known ('object' or 'array'; 'other' for a lone number or string). Returns { push(text), end() }.
 */
export function eventTokenizer(sink) {
  let buf = '';
  let pos = 0; // next character to look at
  let mode = 'start';
  let key = null; // the top-level key whose value is being read
  let inEvents = false; // the array being read is the events'
  let value = null; // the value being captured: { start, depth, inString }

  /** Begins capturing the value at `pos` (its first character is not white space). */
  const begin = () => {
    value = { start: pos, depth: 0, inString: false };
  };

  /** Scans the captured value on; its text when complete, else null (more text needed). */
  const scan = (last) => {
    const v = value;
    const first = buf.charCodeAt(v.start);
    if (kind(first) !== OPEN && first !== QUOTE) {
      // a number or a literal: up to white space, a comma or a closing bracket
      while (pos < buf.length && (kind(buf.charCodeAt(pos)) === OTHER || kind(buf.charCodeAt(pos)) === OPEN)) pos += 1;
      if (pos === buf.length && !last) return null;
      return buf.slice(v.start, pos);
    }
    if (pos === v.start) {
      pos += 1;
      if (first === QUOTE) v.inString = true;
      else v.depth = 1;
    }
    for (;;) {
      if (v.inString) {
        const q = buf.indexOf('"', pos);
        if (q === -1) {
          pos = buf.length;
          return null;
        }
        let slashes = 0;
        while (buf.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes += 1;
        pos = q + 1;
        if (slashes % 2 === 1) continue; // an escaped quote: still inside
        v.inString = false;
        if (v.depth === 0) return buf.slice(v.start, pos);
        continue;
      }
      const n = buf.length;
      for (;;) {
        if (pos >= n) return null;
        const c = buf.charCodeAt(pos);
        pos += 1;
        if (c >= 128) continue;
        const k = CLASS[c];
        if (k === STRING) {
          v.inString = true;
          break;
        }
        if (k === OPEN) v.depth += 1;
        else if (k === CLOSE) {
          v.depth -= 1;
          if (v.depth === 0) return buf.slice(v.start, pos);
        }
      }
    }
  };

  const parse = (text) => {
    try {
      return JSON.parse(text);
    } catch {
      throw notJson(`a value near ${text.slice(0, 40)}`);
    }
  };

  /** Skips white space; the next character's code, or -1 when the text so far is used up. */
  const next = () => {
    while (pos < buf.length && kind(buf.charCodeAt(pos)) === SPACE) pos += 1;
    return pos < buf.length ? buf.charCodeAt(pos) : -1;
  };

  /** Runs the outer grammar as far as the text allows. */
  const run = (last) => {
    for (;;) {
      if (mode === 'value' || mode === 'key' || mode === 'element' || mode === 'lone') {
        const text = scan(last);
        if (text === null) return;
        value = null;
        step(text);
        continue;
      }
      const c = next();
      if (c === -1) return;
      outer(c);
    }
  };

  /** One complete captured text, by mode. */
  const step = (text) => {
    if (mode === 'key') {
      key = parse(text);
      mode = 'colon';
    } else if (mode === 'value') {
      sink.top(key, parse(text));
      mode = 'object-comma';
    } else if (mode === 'element') {
      sink.event(parse(text));
      mode = 'array-comma';
    } else {
      parse(text); // a lone number or string: JSON, but no trace
      mode = 'done';
    }
  };

  /** The outer grammar on character `c` (not white space) at `pos`. */
  const outer = (c) => {
    const take = (m) => {
      pos += 1;
      mode = m;
    };
    const expect = (ok, what) => {
      if (!ok) throw notJson(`expected ${what} at ${pos}`);
    };
    if (mode === 'start') {
      sink.shape(c === 0x7b ? 'object' : c === 0x5b ? 'array' : 'other');
      if (c === 0x7b) return take('first-key');
      if (c === 0x5b) {
        inEvents = true;
        return take('first-element');
      }
      begin();
      mode = 'lone';
    } else if (mode === 'first-key' || mode === 'next-key') {
      if (mode === 'first-key' && c === 0x7d) return take('done');
      expect(c === QUOTE, 'a key');
      begin();
      mode = 'key';
    } else if (mode === 'colon') {
      expect(c === 0x3a, "':'");
      take('after-colon');
    } else if (mode === 'after-colon') {
      if (key === 'traceEvents' && c === 0x5b) {
        inEvents = true;
        sink.top(key, []); // the events follow, one by one
        return take('first-element');
      }
      begin();
      mode = 'value';
    } else if (mode === 'object-comma') {
      expect(c === 0x2c || c === 0x7d, "',' or '}'");
      take(c === 0x2c ? 'next-key' : 'done');
    } else if (mode === 'first-element' || mode === 'next-element') {
      if (mode === 'first-element' && c === 0x5d) return closeArray();
      begin();
      mode = 'element';
    } else if (mode === 'array-comma') {
      expect(c === 0x2c || c === 0x5d, "',' or ']'");
      if (c === 0x2c) return take('next-element');
      closeArray();
    } else {
      throw notJson(`text after the end at ${pos}`);
    }
  };

  const closeArray = () => {
    pos += 1;
    inEvents = false;
    mode = key === null ? 'done' : 'object-comma';
  };

  return {
    /** The next piece of text. */
    push(text) {
      const keep = value ? value.start : pos; // what is still needed of the text so far
      buf = buf.slice(keep) + text;
      pos -= keep;
      if (value) value.start = 0;
      run(false);
    },
    /** The text is complete: throws if the JSON is not. */
    end() {
      run(true);
      if (mode !== 'done') throw notJson(inEvents ? 'the events end abruptly' : 'it ends abruptly');
    },
  };
}

/**
 * Reads a stream of text pieces (a ReadableStream of strings) into `sink` (eventTokenizer's). Awaits the whole
 * stream; a failure of the stream itself (a read or gunzip error) is thrown with code `unreadable`, a JSON error as
 * `not_json`.
 */
export async function readEvents(textStream, sink) {
  const tokens = eventTokenizer(sink);
  const reader = textStream.getReader();
  for (;;) {
    let got;
    try {
      got = await reader.read();
    } catch (err) {
      throw Object.assign(new Error(`unreadable: ${err?.message}`), { code: 'unreadable' });
    }
    if (got.done) break;
    try {
      tokens.push(got.value);
    } catch (err) {
      reader.cancel().catch(() => {});
      throw err;
    }
  }
  tokens.end();
}

/**
 * A trace's text stream read into a collector (model/kineto.js): what collectedStep answers any step from. Throws
 * with code `unreadable`, `not_json` or `no_events` (no traceEvents list, as traceStep refuses it).
 */
export async function collectTrace(textStream) {
  const c = collector();
  let events = false;
  const sink = {
    shape: (s) => {
      events = s === 'array';
    },
    top: (key, value) => {
      if (key === 'traceEvents') events = Array.isArray(value);
      else if (key === 'distributedInfo') c.info(value);
    },
    event: (e) => c.add(e),
  };
  await readEvents(textStream, sink);
  if (!events) throw Object.assign(new Error('no traceEvents'), { code: 'no_events' });
  return c.collected;
}
