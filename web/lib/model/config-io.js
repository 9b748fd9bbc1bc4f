// "Use my config" and "Export as…" as pure state: which format a file is in, the engine's config_import and
// config_export requests, and their answers and refusals in a reader's words. Every mapping is the engine's
// (engine/API.md, config_import / config_export); nothing here reads or writes a launcher's settings itself.

import { count, modelWords } from './model-words.js';

/**
 * The formats config_import reads, in a reader's words. The engine does not publish this list (its presets answer
 * has none); the five ids of issue 32's contract and nanotron, and an id the engine does not know is refused by name.
 */
export const IMPORT_FORMATS = [
  ['huggingface', 'Hugging Face config.json'],
  ['megatron', 'Megatron-LM arguments'],
  ['nemo', 'NeMo / Megatron-Bridge YAML'],
  ['torchtitan', 'torchtitan TOML'],
  ['deepspeed', 'DeepSpeed JSON'],
  ['nanotron', 'nanotron YAML'],
];

/** The formats config_export writes: [id, reader's name, file name ending]. */
export const EXPORT_FORMATS = [
  ['megatron', 'Megatron-LM arguments', 'megatron.sh'],
  ['nemo', 'NeMo / Bridge override', 'nemo.yaml'],
  ['torchtitan', 'torchtitan TOML', 'torchtitan.toml'],
  ['deepspeed', 'DeepSpeed JSON', 'deepspeed.json'],
  ['nanotron', 'nanotron YAML', 'nanotron.yaml'],
];

/** A format's name as a reader knows it. */
export const formatName = (id) =>
  (IMPORT_FORMATS.find(([f]) => f === id) ?? EXPORT_FORMATS.find(([f]) => f === id))?.[1] ?? id;

const BY_EXTENSION = { toml: 'torchtitan', yaml: 'nemo', yml: 'nemo', sh: 'megatron' };

/**
 * The format a file most likely is, from its name and text, or null when neither says (the reader then chooses; the
 * engine refuses a wrong guess naming the line, so a guess is never used unseen). Only the file's shape is read.
 */
export function detectFormat(text, fileName = '') {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1].toLowerCase();
  const body = String(text).trim();
  // nanotron's sections (config/config.py): `parallelism:` beside `tokens:` at the top level, never in a NeMo recipe.
  const nanotron = /^parallelism:\s*$/m.test(body) && /^tokens:\s*$/m.test(body);
  if (BY_EXTENSION[extension])
    return BY_EXTENSION[extension] === 'nemo' && nanotron ? 'nanotron' : BY_EXTENSION[extension];
  if (body.startsWith('{')) {
    // DeepSpeed's batch and ZeRO keys (deepspeed/runtime/constants.py) never appear in a model's config.json.
    return /"(train_batch_size|train_micro_batch_size_per_gpu|zero_optimization|gradient_accumulation_steps)"/.test(
      body,
    )
      ? 'deepspeed'
      : 'huggingface';
  }
  if (/(^|\s)--[a-z][a-z0-9-]*/.test(body)) return 'megatron';
  if (/^\s*\[[A-Za-z_][\w.]*\]\s*$/m.test(body)) return 'torchtitan';
  if (nanotron) return 'nanotron';
  if (/^[A-Za-z_][\w.]*:(\s|$)/m.test(body)) return 'nemo';
  return null;
}

/**
 * The engine's config_import request. `base`: the figure's own run as config_import's `base` takes it, given only
 * where the format has no model or split of its own (DeepSpeed); elsewhere the engine's defaults, listed back in
 * `assumed`. `seq`: the sequence length a reader typed (Hugging Face), `vocab` the vocabulary (Megatron-LM), or null.
 */
export function importRequest(format, text, { base = null, seq = null, vocab = null } = {}) {
  const request = { op: 'config_import', format, text };
  const given = (n) => Number.isInteger(n) && n > 0;
  if (format === 'deepspeed' && base) request.base = base;
  if (format === 'huggingface' && given(seq)) request.seq = seq;
  if (format === 'megatron' && given(vocab)) request.vocab = vocab; // Megatron reads it from the tokenizer's files
  return request;
}

/** The mapped request in a reader's sentences: the model, where it runs, how it is split. */
export function requestSentences(request, hardwareName = (id) => id) {
  const q = request.parallel ?? {};
  const gpus = request.cluster?.gpus;
  const split = ['tp', 'pp', 'vpp', 'cp', 'ep']
    .filter((k) => q[k] > 1)
    .map((k) => `${k} ${q[k]}`)
    .join(', ');
  const seq =
    typeof request.model === 'object' && request.model.seq
      ? ` at ${count(request.model.seq, 'token', 'tokens')} per sequence`
      : '';
  const lines = [
    `Model: ${modelWords(request.model)}${seq}.`,
    `Runs on ${gpus ? count(gpus, 'accelerator', 'accelerators') : 'the default cluster'}: ${hardwareName(request.hardware)}.`,
    `Split: ${split || 'data parallel only'}; global batch ${count(q.global_batch ?? 0, 'sequence', 'sequences')}` +
      `${q.microbatch_size ? `, microbatches of ${q.microbatch_size}` : ''}.`,
  ];
  const memory = [
    q.recompute && q.recompute !== 'none' ? `${q.recompute} recomputation` : '',
    q.zero ? `ZeRO-${q.zero}` : '',
    q.sequence_parallel ? 'sequence parallelism' : '',
    request.precision === 'fp8' ? 'FP8 matrix multiplies' : '',
    request.software ? `costed as ${request.software}` : '',
  ].filter(Boolean);
  if (memory.length) lines.push(`Also: ${memory.join(', ')}.`);
  return lines;
}

/** An engine reason for a reader, after the name it explains: backquoted names kept as names, a full stop. */
export function reasonText(why) {
  const text = String(why).replace(/`([^`]+)`/g, '$1');
  return `${text}${/[.!?]$/.test(text) ? '' : '.'}`;
}

/**
 * What the engine assumed, for a reader. config_import's reasons speak to a caller of the API ("until you give
 * `base`", "from base"): here `base` is the figure's own run and the reader has no such field, so those clauses are
 * said as what happens in the page; the config.json's sequence length and cluster are said from the request.
 */
export function assumedText({ field, why }, request, hardwareName = (id) => id) {
  const seq = typeof request.model === 'object' ? request.model.seq : null;
  if (field === 'seq') {
    const tokens = seq ? ` (${count(seq, 'token', 'tokens')})` : '';
    return (
      'the file gives only its longest context' + tokens + ', used as the sequence length: type yours to change it.'
    );
  }
  if (field === 'hardware, cluster, parallel') {
    const gpus = count(request.cluster?.gpus ?? 0, 'accelerator', 'accelerators');
    const batch = count(request.parallel?.global_batch ?? 0, 'sequence', 'sequences');
    return `the file describes the model only: the engine runs it on ${gpus} (${hardwareName(request.hardware)}), a global batch of ${batch}.`;
  }
  let text = String(why)
    .replace(/,? until you give `?base(\.[a-z_]+)?`?/g, '')
    .replace(/\bbase\b/g, "the figure's run");
  if (typeof request.hardware === 'string') text = text.split(request.hardware).join(hardwareName(request.hardware));
  return reasonText(text);
}

/**
 * What the preview shows of a config_import answer: { sentences, unmapped: [{ key, why }], assumed, ignored } with
 * every reason in reader form. Nothing is left out: each list is the engine's, whole.
 */
export function importView(answer, hardwareName = (id) => id) {
  const listed = (items, name) => (items ?? []).map((x) => ({ key: x[name], why: reasonText(x.why) }));
  return {
    sentences: requestSentences(answer.request, hardwareName),
    unmapped: listed(answer.unmapped, 'key'),
    assumed: (answer.assumed ?? []).map((x) => ({ key: x.field, why: assumedText(x, answer.request, hardwareName) })),
    ignored: listed(answer.ignored, 'key'),
  };
}

/** The names a refusal mentions (flags, keys, shell variables), as the engine wrote them. */
function namesIn(message) {
  const names = String(message).match(/--[a-z][a-z0-9-]*|\$[A-Za-z_]\w*|\b[a-z]+(?:[._][a-z0-9]+)+\b/g) ?? [];
  return [...new Set(names.filter((n) => !/^(config\.json|e\.g)$/.test(n)))];
}

/**
 * A refusal of config_import (or of the step it makes) in a reader's words: what is wrong, on which line, and which
 * setting; the engine's own message stays in its answer. `format`: the format the text was read as.
 */
export function importErrorText(error, format) {
  const what = `this ${formatName(format)}`;
  const line = /\bline (\d+)/.exec(error.message ?? '')?.[1];
  const at = line ? ` on line ${line}` : '';
  const names = namesIn(error.message).slice(0, 3);
  const about = names.length ? ` (it concerns ${names.join(', ')})` : '';
  if (error.code === 'invalid_json') return `This text is not valid JSON${at}: was the whole file pasted, as ${what}?`;
  if (error.code === 'wrong_type') return `The text is not laid out as ${what} is${at}: is it the right format?`;
  if (error.code === 'too_large') return 'The text is longer than the engine reads (1 MiB): paste the file itself.';
  if (error.field === 'seq') return 'The file gives no context length: type the sequence length you train with.';
  if (error.field === 'vocab')
    return 'The arguments do not give the vocabulary (Megatron reads it from the tokenizer): type its size.';
  if (error.field === 'base.model')
    return `${capital(what)} does not describe a model, and the figure has none to add.`;
  if (error.field === 'format') return 'Choose which format the text is in.';
  if (error.code === 'missing_field') return `${capital(what)} leaves out a setting the model needs${about}.`;
  if (line) return `${capital(what)} could not be read${at}${about}: is it the right format?`;
  return `${capital(what)} describes a run the engine cannot cost${about}.`;
}

const capital = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A refusal of the imported run by `step` (the split, the memory, a rule of the schedule), for the preview. */
export function stepRefusalText(error) {
  const names = namesIn(error.message).slice(0, 2);
  const field = error.field
    ? ` (${error.field.replace(/^parallel\./, '')})`
    : names.length
      ? ` (${names.join(', ')})`
      : '';
  return `The engine cannot cost this run as the file splits it${field}; a figure cannot show it until that changes.`;
}

/** The engine's config_export request for a step request. */
export function exportRequest(format, stepRequest) {
  const { op: _op, ...rest } = stepRequest;
  return { op: 'config_export', format, request: { op: 'step', ...rest } };
}

/** What the export panel shows: { text, notes: [{ setting, why }], fileName } (words: the figure's file name words). */
export function exportView(answer, format, words = []) {
  const ending = EXPORT_FORMATS.find(([f]) => f === format)?.[2] ?? 'txt';
  const stem = ['parascope', ...words]
    .filter(Boolean)
    .join('-')
    .replace(/[^A-Za-z0-9._-]+/g, '-');
  return {
    text: answer.text,
    notes: (answer.notes ?? []).map((n) => ({ setting: n.setting, why: reasonText(n.why) })),
    fileName: `${stem}-${ending}`,
  };
}
