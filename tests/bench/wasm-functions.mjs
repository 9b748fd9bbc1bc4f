#!/usr/bin/env node
// Where a wasm module's bytes go, by function: reads the code section's body sizes and the name section's function
// names (link with --profiling-funcs: `cmake -S . -B build/wasm -DPARASCOPE_WASM_PROFILE=ON`, then build), demangles
// them (llvm-cxxfilt when installed) and prints totals per group and the largest functions.
// `node tests/bench/wasm-functions.mjs build/wasm/parascope.wasm [how many, default 40]`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const [file, top = '40'] = process.argv.slice(2);
if (!file) throw new Error('usage: wasm-functions.mjs <file.wasm> [top]');
const bytes = readFileSync(file);
let at = 8;
const leb = () => {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return value;
  }
};
const skipLimits = () => { const flags = bytes[at++]; leb(); if (flags & 1) leb(); };
let imported = 0;
const bodies = []; // [function index, bytes]
const names = new Map();
const sections = [];
while (at < bytes.length) {
  const id = bytes[at++];
  const size = leb();
  const end = at + size;
  if (id === 0) {
    const nameLength = leb();
    const name = bytes.subarray(at, at + nameLength).toString();
    at += nameLength;
    sections.push({ id: `custom "${name}"`, size });
    while (name === 'name' && at < end) {
      const sub = bytes[at++];
      const subEnd = leb() + at;
      if (sub === 1) {
        for (let n = leb(); n > 0; n -= 1) {
          const index = leb();
          const length = leb();
          names.set(index, bytes.subarray(at, at + length).toString());
          at += length;
        }
      }
      at = subEnd;
    }
  } else {
    sections.push({ id, size, gzip: gzipSync(bytes.subarray(at, end), { level: 9 }).length });
  }
  if (id === 2) {  // imports: functions take the first indices
    for (let n = leb(); n > 0; n -= 1) {
      for (let part = 0; part < 2; part += 1) { const length = leb(); at += length; } // module and field names
      const kind = bytes[at++];
      if (kind === 0) { leb(); imported += 1; } else if (kind === 1) { at += 1; skipLimits(); } else if (kind === 2) skipLimits();
      else if (kind === 3) at += 2;
      else if (kind === 4) { at += 1; leb(); }
    }
  } else if (id === 10) {
    for (let n = leb(), i = 0; i < n; i += 1) {
      const start = at;
      const length = leb();
      at += length;
      bodies.push([imported + i, at - start]);
    }
  }
  at = end;
}
let demangled = bodies.map(([index]) => names.get(index) ?? `function ${index}`);
try {
  demangled = execFileSync('llvm-cxxfilt', { input: demangled.join('\n'), maxBuffer: 1 << 26 }).toString().split('\n');
} catch { /* names stay mangled */ }

// Groups, first match wins: what each part of the engine costs.
const GROUPS = [
  ['planner (plan op, search)', /Plan|plan_|op_plan|candidate_to_json|read_plan/],
  ['nlohmann::json', /nlohmann/],
  ['request reading, JSON writing, ops', /_to_json|_json\(|op_[a-z_]+\(|read_|RequestReader|error_object|preset_for|dispatch|checked|refused|number_text|append_number|cost_json/],
  ['libc++', /std::/],
  ['engine maths', /parascope::/],
  ['libc, allocator, compiler runtime', /./],
];
const totals = new Map(GROUPS.map(([g]) => [g, 0]));
const rows = bodies.map(([, size], i) => {
  const name = demangled[i] ?? '';
  const group = GROUPS.find(([, re]) => re.test(name))[0];
  totals.set(group, totals.get(group) + size);
  return { size, name, group };
});
console.log(`${file}: ${bytes.length} bytes`);
for (const s of sections) console.log(`  section ${String(s.id).padEnd(16)} ${String(s.size).padStart(8)} B${s.gzip ? ` (${s.gzip} B alone, gzip -9)` : ''}`);
console.log('code by group (function bodies, raw bytes):');
for (const [group, size] of [...totals].sort((a, b) => b[1] - a[1])) console.log(`  ${String(size).padStart(8)}  ${group}`);
console.log(`largest ${top} functions:`);
for (const r of rows.sort((a, b) => b.size - a.size).slice(0, Number(top))) console.log(`  ${String(r.size).padStart(8)}  ${r.name.slice(0, 150)}`);
