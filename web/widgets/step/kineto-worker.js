// The step figure's trace reader, in a Web Worker so that a trace of hundreds of MB never stalls the page: reads the
// dropped file as a stream (gunzipped on the way by DecompressionStream when it is gzip), says how far it has read,
// parses it and answers one step's classification (model/kineto.js). The file never leaves the browser. The parsed
// trace is kept for the next question (another step of the same file).
import { traceStep } from './model/kineto.js';

let held = null; // { id, trace }

/** Whether the blob starts with gzip's magic bytes (1f 8b). */
async function gzipped(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** The file's text, read chunk by chunk, with progress (fraction of the file's bytes read) posted as it goes. */
async function readText(id, file) {
  const total = file.size;
  let read = 0;
  let said = 0;
  let stream = file.stream().pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        read += chunk.byteLength;
        const now = performance.now();
        if (now - said > 100 || read === total) {
          said = now; // ten words a second at most: each is a repaint of the bar on the page
          postMessage({ id, type: 'progress', read, total });
        }
        controller.enqueue(chunk);
      },
    }),
  );
  if (await gzipped(file)) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const parts = [];
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return parts.join('');
}

const fail = (id, code) => postMessage({ id, type: 'error', code });

async function open(id, file, pick) {
  let text;
  try {
    text = await readText(id, file);
  } catch {
    return fail(id, 'unreadable');
  }
  postMessage({ id, type: 'parsing' });
  let trace;
  try {
    trace = JSON.parse(text);
  } catch {
    return fail(id, 'not_json');
  }
  text = null;
  held = { id, trace };
  answer(id, pick);
}

function answer(id, pick) {
  try {
    postMessage({ id, type: 'done', summary: traceStep(held.trace, pick) });
  } catch (err) {
    fail(id, err.code ?? 'unreadable');
  }
}

addEventListener('message', ({ data }) => {
  if (data.type === 'open') open(data.id, data.file, data.pick);
  else if (data.type === 'pick' && held?.id === data.id) answer(data.id, data.pick);
});
