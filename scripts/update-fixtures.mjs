#!/usr/bin/env node
// Records the native engine's answers into tests/fixtures/api/*.txt (dev tool: review the diff before committing).
// A case is "# name", then the request line, then the response line; a case given without its response gets one.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const cli = `${root}build/native/parascope`;
const dir = `${root}tests/fixtures/api/`;

for (const file of readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .sort()) {
  const lines = readFileSync(dir + file, 'utf8')
    .split('\n')
    .filter((l) => l.length > 0);
  const out = [];
  for (let i = 0; i < lines.length;) {
    if (!lines[i].startsWith('# ')) throw new Error(`${file}: expected "# name" at case line ${i + 1}`);
    const name = lines[i];
    const request = lines[i + 1];
    const hasResponse = i + 2 < lines.length && !lines[i + 2].startsWith('# ');
    let response;
    try {
      response = execFileSync(cli, { input: request }).toString().trimEnd();
    } catch (err) {
      response = err.stdout.toString().trimEnd(); // exit 2: an error object, which is a fine answer to record
    }
    out.push(name, request, response, '');
    i += hasResponse ? 3 : 2;
  }
  writeFileSync(dir + file, out.join('\n'));
  console.log(`${file}: ${out.length / 4} cases`);
}
