/**
 * Hostile inputs for the fuzz suites: wrong types, huge strings, unicode, negative and fractional
 * numbers, missing and extra fields, prototype keys, malformed JSON. `known` values (real ids from
 * the fixture) are mixed in so some inputs get past the first checks and reach deeper code.
 */
import fc from "fast-check";
import { scaled } from "@/tests/helpers/scale";

/**
 * Hostile inputs per target. `npm test` sends 200 (a fresh random seed each run, so runs add up);
 * `npm run test:heavy` (part of `npm run test:reliability` and so of CI) sends 1,000, as
 * TEST_SCALE=full.
 */
export const NUM_RUNS = scaled(1000, 200);
/** 1,000 calls through real handlers and PostgreSQL take seconds alone, far longer on a busy machine. */
export const FUZZ_TIMEOUT_MS = 240_000;

const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "\t\n\r",
  '\'; DROP TABLE "User"; --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00%ff",
  "NaN",
  "-1",
  "1e309",
  "0x10",
  "-0.001",
  "12.345",
  "$10,000.00",
  "4242 4242 4242 4242",
  "2026-02-30T25:61:00Z",
  "null",
  "undefined",
  "{}",
  "[]",
  "\u202Egnp.exe",
  "👨‍👩‍👧‍👦".repeat(300),
  "é".normalize("NFD").repeat(1000),
  "a".repeat(100_000),
  "x".repeat(1001),
];

export const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(...NASTY_STRINGS),
);

export const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    -0.01,
    0.001,
    10_000.005,
    1e21,
    Number.MAX_SAFE_INTEGER + 2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ),
);

export function nastyValue(known: readonly string[] = []) {
  return fc.oneof(
    { weight: 4, arbitrary: nastyString },
    { weight: 2, arbitrary: nastyNumber },
    { weight: known.length ? 3 : 0, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant("") },
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(fc.anything({ maxDepth: 1 }), { maxLength: 3 }),
    fc.object({ maxDepth: 1 }),
  );
}

/** Objects built from the expected keys (each maybe missing), extra keys and prototype keys. */
export function nastyInput(keys: readonly string[], known: readonly string[] = []) {
  const value = nastyValue(known);
  const allKeys = [...keys, "extra", "__proto__", "constructor", "isAdmin", "userId", "creatorId"];
  return fc.oneof(
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    {
      weight: 3,
      arbitrary: keys.length
        ? fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] })
        : fc.constant({}),
    },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom(...allKeys), value, { maxKeys: allKeys.length }) },
    {
      weight: 2,
      arbitrary: keys.length
        ? fc
            .tuple(
              fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] }),
              fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 }),
            )
            .map(([a, b]) => ({ ...b, ...a }))
        : fc.constant({}),
    },
  );
}

/** A request body: malformed JSON text, or JSON of a hostile input. */
export function nastyBody(keys: readonly string[], known: readonly string[] = []) {
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.constantFrom(
          "{",
          '{"campaignId":',
          "[1,2",
          "nul",
          '"unterminated',
          "{'single':1}",
          "\u0000",
          "{}}",
        ),
      ),
    },
    { weight: 4, arbitrary: nastyInput(keys, known).map((v) => JSON.stringify(v) ?? "") },
  );
}

/** A user-facing error message: present, short, and free of internals. */
export function isClearMessage(m: unknown): boolean {
  return (
    typeof m === "string" &&
    m.trim().length > 0 &&
    m.length <= 300 &&
    !/\n\s+at\s|prisma|invocation|stack|\[object|SELECT |syntaxerror|typeerror|referenceerror/i.test(m)
  );
}
