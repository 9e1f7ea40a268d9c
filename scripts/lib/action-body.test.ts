import { execFileSync } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { checkActionBody, checkFormPost, checkReply, MESSAGES } from "./action-body.mjs";

// Issue 31 item 5: server-action bodies whose references do not resolve answered 500. The validator
// must refuse exactly those, and pass everything React's encodeReply writes. React's own codec is the
// judge: tests/security/react-reply-oracle.mjs runs it (it needs the react-server condition, so in a
// child process) to encode real arguments and to decode every body the way Next's action handler does.

const ORACLE = path.resolve(__dirname, "../../tests/security/react-reply-oracle.mjs");
type Body = { type: string; body: string }; // body: base64
function oracle<T>(request: unknown): T {
  const out = execFileSync(process.execPath, ["--conditions=react-server", ORACLE], {
    input: JSON.stringify(request),
    env: { ...process.env, NODE_ENV: "production" },
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(out.toString("utf8")) as T;
}
const KNOWN_ACTION = "7f00000000000000000000000000000000000000aa";
const isServerReference = (id: string) => id === KNOWN_ACTION;
const check = (b: Body) =>
  checkActionBody({ contentType: b.type, body: Buffer.from(b.body, "base64"), isServerReference });
const text = (s: string): Body => ({
  type: "text/plain;charset=UTF-8",
  body: Buffer.from(s).toString("base64"),
});

const BOUNDARY = "----item5boundary";
type Part = { name: string; value?: string; file?: number };
function multipart(parts: Part[]): Body {
  const chunks = parts.map((p) =>
    p.file === undefined
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n${"x".repeat(p.file)}\r\n`,
  );
  return {
    type: `multipart/form-data; boundary=${BOUNDARY}`,
    body: Buffer.from(chunks.join("") + `--${BOUNDARY}--\r\n`).toString("base64"),
  };
}

describe("the bodies that answered 500 (issue 31 item 5)", () => {
  const listed = [
    '["$F1"]',
    '["$Q1"]',
    '["$B1"]',
    '["$h1"]',
    '["$AT1"]',
    '["$i"]',
    '["$S"]',
    '["$W1"]',
    '["$Z"]',
  ];

  it("each listed reference syntax body is refused with a message, and React itself fails on it", async () => {
    for (const b of listed) expect(await check(text(b)), b).toBe(MESSAGES.reference);
    const react = oracle<string[]>({ op: "decode", bodies: listed.map(text) });
    react.forEach((r, i) => expect(r, listed[i]).toMatch(/^error/));
  });

  it("malformed multipart bodies are refused: garbage, a bare delimiter, a cut-off part", async () => {
    const type = "multipart/form-data; boundary=xx";
    for (const body of [
      "garbage",
      "--xx\r\n\r\n",
      '--xx\r\nContent-Disposition: form-data; name="0"\r\n\r\n["a"]',
      '--xx\r\nContent-Disposition: form-data; name="0"\r\n\r\n["a"]\r\n--x',
      "",
      "--xx--\r\n", // parses, but holds no arguments
    ])
      expect(
        await checkActionBody({ contentType: type, body: Buffer.from(body) }),
        JSON.stringify(body),
      ).toBe(MESSAGES.malformed);
    expect(await checkActionBody({ contentType: "multipart/form-data", body: Buffer.from("x") })).toBe(
      MESSAGES.malformed,
    );
  });

  it("the same references pass when the multipart body holds the parts they name, of the right kind", async () => {
    const cases: [Part[], string | null][] = [
      [
        [
          { name: "241", value: "[1]" },
          { name: "0", value: '["$F1"]' },
        ],
        null,
      ], // $F1 is row 0xF1
      [
        [
          { name: "1", value: "[[1,2]]" },
          { name: "0", value: '["$Q1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", file: 3 },
          { name: "0", value: '["$B1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", value: "[1]" },
          { name: "0", value: '["$W1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", file: 4 },
          { name: "0", value: '["$S1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", file: 3 },
          { name: "0", value: '["$S1"]' },
        ],
        MESSAGES.reference,
      ], // 3 bytes: not Int16s
      [
        [
          { name: "1", value: "[1]" },
          { name: "0", value: '["$B1"]' },
        ],
        MESSAGES.reference,
      ], // a row, not a file
      [
        [
          { name: "1", file: 3 },
          { name: "0", value: '["$Q1"]' },
        ],
        MESSAGES.reference,
      ], // a file, not a row
      [
        [
          { name: "1", value: '"x"' },
          { name: "0", value: '["$Q1"]' },
        ],
        MESSAGES.reference,
      ], // not an array
      [
        [
          { name: "0", value: '["$Q1"]' },
          { name: "1", value: "[[1,2]]" },
        ],
        MESSAGES.reference,
      ], // after the root
      [
        [
          { name: "1", value: "[[1,2]]" },
          { name: "0", value: '["$Q1","$Q1"]' },
        ],
        MESSAGES.reference,
      ], // used twice
      [
        [
          { name: "0", value: '["$@1"]' },
          { name: "1", value: "[1]" },
        ],
        null,
      ], // a promise may come later
      [[{ name: "0", value: '["$@1"]' }], MESSAGES.reference],
      [
        [
          { name: "_1_a", value: "b" },
          { name: "0", value: '["$K1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", value: `{"id":"${KNOWN_ACTION}","bound":null}` },
          { name: "0", value: '["$h1"]' },
        ],
        null,
      ],
      [
        [
          { name: "1", value: '{"id":"unknown","bound":null}' },
          { name: "0", value: '["$h1"]' },
        ],
        MESSAGES.reference,
      ],
      [
        [
          { name: "0", value: '["$R1"]' },
          { name: "S1", value: '"a"' },
          { name: "S1", value: "C" },
        ],
        null,
      ],
      [
        [
          { name: "0", value: '["$R1"]' },
          { name: "S1", value: '"a"' },
        ],
        MESSAGES.reference,
      ], // never closed
      [[{ name: "00", value: "[1]" }], MESSAGES.malformed],
      [
        [
          { name: "0", value: "[1]" },
          { name: "0", value: "[2]" },
        ],
        MESSAGES.malformed,
      ],
      [[{ name: "0", value: '{"a":1}' }], MESSAGES.notArray],
    ];
    for (const [parts, want] of cases)
      expect(await check(multipart(parts)), JSON.stringify(parts)).toBe(want);
    const react = oracle<string[]>({ op: "decode", bodies: cases.map(([parts]) => multipart(parts)) });
    cases.forEach(([parts, want], i) => {
      if (want === null) expect(react[i], JSON.stringify(parts)).toBe("ok");
      else if (!JSON.stringify(parts).includes('"00"'))
        expect(react[i], JSON.stringify(parts)).not.toBe("ok");
    });
  });

  it("Next's own limits: at most 1000 arguments, BigInts of at most 300 digits, 1e6 array slots", async () => {
    expect(await check(text(JSON.stringify(Array(1001).fill(1))))).toBe(MESSAGES.tooMany);
    expect(await check(text(JSON.stringify(Array(1000).fill(1))))).toBeNull();
    expect(await check(text(`["$n${"9".repeat(301)}"]`))).toBe(MESSAGES.reference);
    expect(await check(text('["$n1x"]'))).toBe(MESSAGES.reference);
    expect(await check(text(JSON.stringify(["a".repeat(600_000), "b".repeat(400_001)])))).toBe(
      MESSAGES.tooLarge,
    );
    expect(
      await check(text(JSON.stringify([{ t: "a".repeat(600_000) }, { t: "b".repeat(400_001) }]))),
    ).toBeNull();
    const react = oracle<string[]>({
      op: "decode",
      bodies: [
        text(JSON.stringify(Array(1001).fill(1))),
        text(JSON.stringify(["a".repeat(600_000), "b".repeat(400_001)])),
        text(JSON.stringify([{ t: "a".repeat(600_000) }, { t: "b".repeat(400_001) }])),
      ],
    });
    expect(react).toEqual([expect.stringMatching(/^error/), expect.stringMatching(/^error/), "ok"]);
  });
});

describe("everything React's encodeReply writes passes", () => {
  let encoded: Body[] = [];
  beforeAll(() => {
    encoded = oracle<Body[]>({ op: "encode" });
  });

  it("every kind of argument (FormData, Map, Set, Blob, typed arrays, promises, streams, server references, cycles)", async () => {
    expect(encoded.length).toBeGreaterThan(25);
    expect(encoded.some((b) => b.type.startsWith("multipart/"))).toBe(true);
    for (const b of encoded) expect(await check(b), Buffer.from(b.body, "base64").toString()).toBeNull();
    expect(oracle<string[]>({ op: "decode", bodies: encoded })).toEqual(encoded.map(() => "ok"));
  });

  it("a legitimate multipart body with a part removed or moved after the root is refused, as React fails on it", async () => {
    const mutated: Body[] = [];
    for (const b of encoded) {
      if (!b.type.startsWith("multipart/")) continue;
      const boundary = b.type.split("boundary=")[1];
      const raw = Buffer.from(b.body, "base64").toString("latin1");
      const parts = raw.split(`--${boundary}`).slice(1, -1);
      const rootAt = parts.findIndex((p) => /name="0"\r\n/.test(p));
      parts.forEach((p, i) => {
        if (i >= rootAt || /name="_/.test(p)) return; // FormData entries are optional by nature
        const without = parts.filter((_, j) => j !== i);
        const moved = [...without, p];
        for (const list of [without, moved])
          mutated.push({
            type: b.type,
            body: Buffer.from(
              list.map((q) => `--${boundary}${q}`).join("") + `--${boundary}--\r\n`,
              "latin1",
            ).toString("base64"),
          });
      });
    }
    expect(mutated.length).toBeGreaterThan(20);
    const react = oracle<string[]>({ op: "decode", bodies: mutated });
    const verdicts = await Promise.all(mutated.map(check));
    verdicts.forEach((v, i) => {
      // the validator never lets through what React fails on, and refuses every mutation React refuses
      if (react[i] !== "ok") expect(v, Buffer.from(mutated[i].body, "base64").toString()).not.toBeNull();
    });
    expect(verdicts.filter((v) => v !== null).length).toBeGreaterThan(mutated.length / 2);
  });
});

// ---- a corpus generated from the reply grammar -----------------------------------------------------

const TAGS = [..."$@hHTQWKiI-NuDnBRrXxAOoUSsLlGgMmV", "", ..."FZCEabcdef"];
const idText = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 5 }).map((n) => n.toString(16)) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "T1", "-1", "zz", "1x", "F1", "0:0", "1:0", "1:a", "0:1:0", "1:0:0"),
  },
);
const reference = fc
  .tuple(fc.constantFrom(...TAGS), idText, fc.constantFrom("", "", "", ":0", ":a", ":0:0", ":1"))
  .map(([tag, id, p]) => `$${tag}${id}${p}`);
const { value: modelValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: reference },
    {
      weight: 2,
      arbitrary: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null)),
    },
    { weight: 2, arbitrary: fc.array(tie("value"), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.constantFrom("a", "b", "x:y", "__proto__"), tie("value"), { maxKeys: 2 }),
    },
  ),
}));
const rowPart = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.oneof(fc.array(modelValue, { maxLength: 3 }), modelValue))
  .map(([id, v]): Part => ({ name: String(id), value: JSON.stringify(v) }));
const filePart = fc
  .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 9 }))
  .map(([id, size]): Part => ({ name: String(id), file: size }));
const streamPart = fc
  .tuple(
    fc.integer({ min: 1, max: 5 }),
    fc.oneof(
      fc.constant("C"),
      modelValue.map((v) => JSON.stringify(v)),
    ),
  )
  .map(([id, v]): Part => ({ name: `S${id}`, value: v }));
const formPart = fc.integer({ min: 1, max: 3 }).map((id): Part => ({ name: `_${id}_field`, value: "v" }));
const rootArgs = fc.array(modelValue, { minLength: 1, maxLength: 3 });
const generatedBody = fc.oneof(
  rootArgs.map((args) => ({ args, parts: [] as Part[], rootAt: 0, text: true })),
  fc
    .tuple(
      rootArgs,
      fc.array(fc.oneof(rowPart, rowPart, filePart, streamPart, formPart), { maxLength: 5 }),
      fc.nat(),
    )
    .map(([args, parts, at]) => ({ args, parts, rootAt: at % (parts.length + 1), text: false })),
);
type Generated = { args: unknown[]; parts: Part[]; rootAt: number; text: boolean };
const toBody = (g: Generated): Body => {
  if (g.text) return text(JSON.stringify(g.args));
  const parts = [...g.parts];
  parts.splice(g.rootAt, 0, { name: "0", value: JSON.stringify(g.args) });
  return multipart(parts);
};
/** Bodies encodeReply never writes, refused on purpose although React might not fail on them. */
function deliberatelyStricter(g: Generated): boolean {
  const names = g.parts.filter((p) => !p.name.startsWith("S") && !p.name.startsWith("_")).map((p) => p.name);
  const all = JSON.stringify([g.args, g.parts]);
  return (
    new Set(names).size !== names.length || // a part sent twice
    (g.text && /\$K/.test(all)) || // FormData in a text body
    /\$[@RrXx]/.test(all) || // a promise or stream: React fails only once it is awaited or read... or never
    /\$[QWih][0-9a-f]/.test(all) || // Map/Set/iterator/server-reference rules are stricter than React's
    /"\$(?:[0-9a-fCEFZ]|[0-9a-f]?:)/.test(all) // paths ending on a reference
  );
}

describe("a corpus generated from React's reply grammar", () => {
  it("the validator never throws, whatever the body", async () => {
    await fc.assert(
      fc.asyncProperty(generatedBody, async (g) => {
        const verdict = await check(toBody(g));
        expect(verdict === null || typeof verdict === "string").toBe(true);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.array(fc.record({ name: fc.string(), value: fc.string() })), (entries) => {
        const parts = entries.map((e) => ({ ...e, kind: "field" as const, size: e.value.length }));
        const verdict = checkReply(parts, { mode: "stream" });
        expect(verdict === null || typeof verdict === "string").toBe(true);
      }),
    );
  });

  it("accepts exactly the bodies whose references React resolves (React's decoder is the judge)", async () => {
    const corpus = fc.sample(generatedBody, { numRuns: 1500, seed: 31_5 }) as Generated[];
    const bodies = corpus.map(toBody);
    const react = oracle<string[]>({ op: "decode", bodies });
    const verdicts = await Promise.all(bodies.map(check));
    let accepted = 0;
    let refusedOk = 0;
    corpus.forEach((g, i) => {
      const shown = `${JSON.stringify(g)} → react ${react[i]}, validator ${verdicts[i]}`;
      // never pass a body React fails on (that is a 500)
      if (verdicts[i] === null) {
        accepted++;
        expect(react[i], shown).toBe("ok");
      } else if (react[i] === "ok") {
        refusedOk++;
        // never refuse a body React resolves, but for the documented stricter cases
        expect(deliberatelyStricter(g), shown).toBe(true);
      }
    });
    // the corpus is not trivial either way
    expect(accepted).toBeGreaterThan(100);
    expect(bodies.length - accepted).toBeGreaterThan(300);
    expect(refusedOk).toBeLessThan(bodies.length / 4);
  });
});

describe("a form posted without JavaScript (decodeAction's bound-action metadata)", () => {
  const form = (entries: [string, string][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return new Response(f);
  };
  const post = async (entries: [string, string][]) => {
    const res = form(entries);
    return checkFormPost({
      contentType: res.headers.get("content-type")!,
      body: Buffer.from(await res.arrayBuffer()),
      isServerReference,
    });
  };

  it("passes a plain form, an action id, and bound metadata that resolves; refuses metadata that does not", async () => {
    expect(await post([["token", "abc"]])).toBeNull();
    expect(
      await post([
        [`$ACTION_ID_${KNOWN_ACTION}`, ""],
        ["token", "abc"],
      ]),
    ).toBeNull();
    expect(
      await post([
        ["$ACTION_REF_1", ""],
        ["$ACTION_1:0", `{"id":"${KNOWN_ACTION}","bound":"$@1"}`],
        ["$ACTION_1:1", '["a"]'],
      ]),
    ).toBeNull();
    for (const meta of [`{"id":"${KNOWN_ACTION}","bound":"$@1"}`, `{"id":"${KNOWN_ACTION}","bound":"$Q1"}`])
      expect(
        await post([
          ["$ACTION_REF_1", ""],
          ["$ACTION_1:0", meta],
        ]),
        meta,
      ).toBe(MESSAGES.reference);
    // no metadata part at all: Next itself answers that (400)
    expect(await post([["$ACTION_REF_1", ""]])).toBeNull();
  });

  it("a multipart body that does not parse is refused", async () => {
    for (const body of [
      "garbage",
      "--xx\r\n\r\n",
      '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
    ])
      expect(
        await checkFormPost({ contentType: "multipart/form-data; boundary=xx", body: Buffer.from(body) }),
        JSON.stringify(body),
      ).toBe(MESSAGES.malformed);
  });
});
