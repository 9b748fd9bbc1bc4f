// The element attributes (model/attributes.js) written out for editors: the TypeScript declarations of
// types/elements.d.ts and VS Code's HTML custom data (types/html-custom-data.json). tests/js/attribute-docs.test.mjs
// checks both files against these (UPDATE=1 rewrites them). Pure.
import { ATTRIBUTES, defaultText, presetValues, rangeText } from './attributes.js';

const ABOUT = {
  'parascope-axes': 'One model split by data, tensor, pipeline and expert parallelism: what each GPU holds and sends.',
  'parascope-ring': 'A ring all-reduce chunk by chunk, with its cost on real links and at scale.',
  'parascope-bubble':
    "A pipeline schedule's timeline, the bubble hatched, honest efficiency beside the dashboard's 100 %.",
  'parascope-mfu': 'What the utilization dashboard shows against MFU, for published runs or your own throughput.',
};

/** The TypeScript type of an attribute's value (as written in HTML: text). */
function valueType(spec) {
  if (spec.kind === 'flag') return "boolean | '' | 'true' | 'false'";
  if (spec.choices) return spec.choices.map((c) => `'${c}'`).join(' | ');
  if (spec.engine) return ENGINE_TYPES[spec.engine];
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
  attention: 'Attention',
  plan_objectives: 'PlanObjective',
};

const pascal = (tag) => tag.replace(/(^|-)(\w)/g, (_m, _d, c) => c.toUpperCase());

/** types/elements.d.ts */
export function elementTypes() {
  const lines = [
    '// Generated from web/lib/model/attributes.js by lib/model/attribute-docs.js (tests/js/attribute-docs.test.mjs',
    '// checks it; UPDATE=1 rewrites it). The attributes of each parascope element, for editors and JSX.',
    `import type { ${[...new Set(Object.values(ENGINE_TYPES).map((t) => t.replace(/\W/g, '')))].sort().join(', ')} } from './engine.js';`,
    '',
  ];
  for (const [tag, attributes] of Object.entries(ATTRIBUTES)) {
    lines.push(`/** <${tag}>: ${ABOUT[tag]} */`, `export interface ${pascal(tag)}Attributes {`);
    for (const [name, spec] of Object.entries(attributes)) {
      lines.push(`  /** ${spec.about}. ${rangeText(spec)}; default ${defaultText(spec)}. */`);
      lines.push(`  '${name}'?: ${valueType(spec)};`);
    }
    lines.push('}', '');
  }
  lines.push("/** Each element's attributes, by tag. */", 'export interface ParascopeElementAttributes {');
  for (const tag of Object.keys(ATTRIBUTES)) lines.push(`  '${tag}': ${pascal(tag)}Attributes;`);
  lines.push('}', '');
  return `${lines.join('\n')}`;
}

/** types/html-custom-data.json (VS Code's "html.customData" format). */
export function customData(presets = null) {
  const values = (spec) => {
    const list = spec.choices ?? (spec.engine && presets ? presetValues(presets, spec.engine) : null);
    return list ? { values: list.map((name) => ({ name })) } : {};
  };
  return {
    version: 1.1,
    tags: Object.entries(ATTRIBUTES).map(([tag, attributes]) => ({
      name: tag,
      description: ABOUT[tag],
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
