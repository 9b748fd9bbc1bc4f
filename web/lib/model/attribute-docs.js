// The element attributes (model/attributes.js) written out for editors: the TypeScript declarations of
// types/elements.d.ts and VS Code's HTML custom data (types/html-custom-data.json). tests/js/attribute-docs.test.mjs
// checks both files against these (UPDATE=1 rewrites them). Pure.
import { ATTRIBUTES, defaultText, presetValues, rangeText } from './attributes.js';

/** Each element's one-line description, by tag: every element in ATTRIBUTES needs one (aboutOf). */
export const ABOUT = {
  'parascope-axes': 'One model split by data, tensor, pipeline and expert parallelism: what each GPU holds and sends.',
  'parascope-context':
    'Context parallelism step by step: zig-zag chunks, keys and values around a ring, what the link leaves exposed.',
  'parascope-ring': 'A ring all-reduce chunk by chunk, with its cost on real links and at scale.',
  'parascope-bubble':
    "A pipeline schedule's timeline, the bubble hatched, honest efficiency beside the dashboard's 100 %.",
  'parascope-mfu': 'What the utilization dashboard shows against MFU, for published runs or your own throughput.',
  'parascope-step': "One training step per GPU and stream, as a profiler would show it, from the engine's cost model.",
  'parascope-track':
    'Every published run the engine was checked on, predicted against measured, with its error per publication.',
  'parascope-memory': "One GPU's memory through one training step, part by part, its peak against the chip's capacity.",
  'parascope-planner':
    'The configurations of a model on a cluster that fit in memory, ranked by predicted MFU, searched in a worker.',
  'parascope-run':
    'A whole training run on a chosen split: days, failures, checkpoints, goodput, energy and cost as GPUs grow.',
  'parascope-nccl':
    "Your cluster's nccl-tests output fitted to the engine's link model, measured against modelled bus bandwidth.",
};

/** The one-line description of element `tag` (ABOUT); a tag without one stops the generator rather than print it blank. */
export function aboutOf(tag, about = ABOUT) {
  if (typeof about[tag] !== 'string' || !about[tag].trim()) {
    throw new Error(`<${tag}> has no description: add one to ABOUT in web/lib/model/attribute-docs.js`);
  }
  return about[tag];
}

/** The TypeScript type of an attribute's value (as written in HTML: text). */
function valueType(spec) {
  if (spec.kind === 'flag') return "boolean | '' | 'true' | 'false'";
  if (spec.choices) return spec.choices.map((c) => `'${c}'`).join(' | ');
  if (spec.engine) {
    if (!ENGINE_TYPES[spec.engine]) throw new Error(`the engine list "${spec.engine}" has no type in ENGINE_TYPES`);
    return ENGINE_TYPES[spec.engine];
  }
  if (spec.kind === 'int' || spec.kind === 'number') return 'number | `${number}`';
  return 'string';
}

/** The type (types/engine.d.ts, generated from the presets answer) of a value from each engine list, as HTML text. */
const ENGINE_TYPES = {
  models: 'ModelId',
  hardware: 'HardwareId',
  schedules: 'ScheduleId',
  recompute: 'Recompute',
  zero: '`${ZeroStage}`',
  precisions: 'Precision',
  attention: 'Attention',
  plan_objectives: 'PlanObjective',
  software: 'Software',
};

const pascal = (tag) => tag.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase());

/** types/elements.d.ts (`about`: the descriptions, ABOUT unless a test gives others). */
export function elementTypes(about = ABOUT) {
  const lines = [
    '// Generated from web/lib/model/attributes.js by lib/model/attribute-docs.js (tests/js/attribute-docs.test.mjs',
    '// checks it; UPDATE=1 rewrites it). The attributes of each parascope element, for editors and JSX.',
    `import type { ${[...new Set(Object.values(ENGINE_TYPES).map((t) => t.replace(/\W/g, '')))].sort().join(', ')} } from './engine.js';`,
    '',
  ];
  for (const [tag, attributes] of Object.entries(ATTRIBUTES)) {
    lines.push(`/** <${tag}>: ${aboutOf(tag, about)} */`, `export interface ${pascal(tag)}Attributes {`);
    for (const [name, spec] of Object.entries(attributes)) {
      lines.push(`  /** ${spec.about}. ${rangeText(spec)}; default ${defaultText(spec)}. */`);
      lines.push(`  '${name}'?: ${valueType(spec)};`);
    }
    lines.push('}', '');
  }
  lines.push("/** Each element's attributes, by tag. */", 'export interface ParascopeElementAttributes {');
  for (const tag of Object.keys(ATTRIBUTES)) lines.push(`  '${tag}': ${pascal(tag)}Attributes;`);
  lines.push('}', '', ...tagMaps());
  return `${lines.join('\n')}`;
}

/** What every element takes besides its own attributes, as HTML or JSX writes it: no other name type-checks. */
const COMMON = `/** The attributes any HTML element takes, as a page or JSX writes them on a parascope element. */
export interface ParascopeCommonAttributes {
  id?: string; class?: string; className?: string; style?: string | { [property: string]: string | number };
  slot?: string; hidden?: boolean; title?: string; lang?: string; dir?: 'ltr' | 'rtl' | 'auto';
  tabIndex?: number; tabindex?: number | \`\${number}\`; role?: string;
  key?: string | number | bigint | null; ref?: unknown; children?: unknown;
  [data: \`data-\${string}\`]: string | number | boolean | undefined;
  [aria: \`aria-\${string}\`]: string | number | boolean | undefined;
}`;

/** The element types by tag, for document.querySelector and JSX (a global JSX namespace: Preact, Solid, older React). */
function tagMaps() {
  const tags = Object.keys(ATTRIBUTES);
  return [
    COMMON,
    '',
    '/** What every parascope element adds to HTMLElement. */',
    'export interface ParascopeElement extends HTMLElement {',
    '  /** Starts the figure now (it normally starts when scrolled near). */',
    '  startNow(): void;',
    '  /** The current state as attribute values (what a permalink holds), or null before it has started. */',
    '  linkState(): Record<string, string | number | boolean | null> | null;',
    "  /** A link to this page with this figure's state in the hash (permalink attribute). */",
    '  linkHref(): string;',
    '}',
    '',
    "/** JSX's intrinsic elements for the parascope tags: each element's own attributes and the common ones, no other. */",
    'export type ParascopeIntrinsicElements = {',
    '  [Tag in keyof ParascopeElementAttributes]: ParascopeElementAttributes[Tag] & ParascopeCommonAttributes;',
    '};',
    '',
    'declare global {',
    '  interface HTMLElementTagNameMap {',
    ...tags.map((tag) => `    '${tag}': ParascopeElement;`),
    '  }',
    '  interface HTMLElementEventMap {',
    '    /** Fired (bubbling) when a figure has started and drawn its first state. */',
    "    'parascope-ready': CustomEvent<void>;",
    '  }',
    '  // eslint-disable-next-line @typescript-eslint/no-namespace',
    '  namespace JSX {',
    '    interface IntrinsicElements extends ParascopeIntrinsicElements {}',
    '  }',
    '}',
    '',
  ];
}

/** types/html-custom-data.json (VS Code's "html.customData" format; `about` as for elementTypes). */
export function customData(presets = null, about = ABOUT) {
  const values = (spec) => {
    const list = spec.choices ?? (spec.engine && presets ? presetValues(presets, spec.engine) : null);
    return list ? { values: list.map((name) => ({ name })) } : {};
  };
  return {
    version: 1.1,
    tags: Object.entries(ATTRIBUTES).map(([tag, attributes]) => ({
      name: tag,
      description: aboutOf(tag, about),
      attributes: Object.entries(attributes).map(([name, spec]) => ({
        name,
        description: `${spec.about}. ${rangeText(spec)}; default ${defaultText(spec)}.`,
        ...(spec.kind === 'flag' ? { valueSet: 'v' } : values(spec)),
      })),
    })),
  };
}

/** The guide's table rows: [element, attribute, range or values, default, what it sets]. */
export function attributeRows(presets = null) {
  const rows = [];
  for (const [tag, attributes] of Object.entries(ATTRIBUTES)) {
    for (const [name, spec] of Object.entries(attributes)) {
      const withChoices = spec.engine && presets ? { ...spec, choices: presetValues(presets, spec.engine) } : spec;
      rows.push([tag, name, rangeText(withChoices), defaultText(spec), spec.about]);
    }
  }
  return rows;
}
