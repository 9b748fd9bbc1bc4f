// The step figure's trace reader, in a Web Worker so that a trace of hundreds of MB never stalls the page: reads the
// dropped file as a stream (gunzipped on the way by DecompressionStream when it is gzip), parses it event by event as
// the text arrives (model/kineto-stream.js) into what a step's split needs (model/kineto.js's collector), says how
// many of the file's bytes it has read, and answers one step's classification. Neither the text nor the parsed trace
// is ever held whole; what was collected is kept for the next question (another step of the same file). The file
// never leaves the browser.
import { collectedStep } from './model/kineto.js';
import { collectTrace } from './model/kineto-stream.js';

let held = null; // { id, collected }

/** Whether the blob starts with gzip's magic bytes (1f 8b). */
async function gzipped(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** The file as a stream of text, with progress (the file's bytes read so far) posted as it goes. */
async function textStream(id, file) {
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
  return stream.pipeThrough(new TextDecoderStream());
}

const fail = (id, code) => postMessage({ id, type: 'error', code });

async function open(id, file, pick) {
  let collected;
  try {
    collected = await collectTrace(await textStream(id, file));
  } catch (err) {
    return fail(id, err.code ?? 'unreadable');
  }
  held = { id, collected };
  answer(id, pick);
}

function answer(id, pick) {
  try {
    postMessage({ id, type: 'done', summary: collectedStep(held.collected, pick) });
  } catch (err) {
    fail(id, err.code ?? 'unreadable');
  }
}

addEventListener('message', ({ data }) => {
  if (data.type === 'open') open(data.id, data.file, data.pick);
  else if (data.type === 'pick' && held?.id === data.id) answer(data.id, data.pick);
});
