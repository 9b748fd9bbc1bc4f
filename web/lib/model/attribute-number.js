// Reads a widget attribute's number as plain decimal text only; anything else (0x10, 0b101, +4, 1e3 for a count) is NaN.

// Whole numbers: decimal digits, an optional leading minus. Number(raw) alone would also take "0x10" (16), "0b101" (5),
// "0o7", "+4", "1e3", " 4 " and "4.0", so an attribute could mean something its author did not write.
const WHOLE = /^-?[0-9]+$/;
// Other numbers: decimal digits with an optional fraction and an optional exponent (bytes="1e9" is how sizes are
// written), never a sign of +, hex/binary/octal, Infinity or surrounding spaces.
const DECIMAL = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** The number `raw` spells, or NaN unless it is plain decimal text (`whole`: digits only, no fraction or exponent). */
export function attributeNumber(raw, { whole = false } = {}) {
  if (typeof raw !== 'string' || !(whole ? WHOLE : DECIMAL).test(raw)) return NaN;
  return Number(raw);
}
