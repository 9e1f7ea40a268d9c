// React's own reply codec, as Next runs it, for scripts/lib/action-body.test.ts (issue 31 item 5).
// Run as `node --conditions=react-server tests/security/react-reply-oracle.mjs` (React's server
// build refuses to load without that condition, so vitest cannot import it): reads one JSON request
// on stdin, writes one JSON answer on stdout.
//   { op: "encode" } → the encodeReply output (text or multipart bytes, as fetch sends them) of a
//     list of argument lists covering every kind of value the client encoder writes.
//   { op: "decode", bodies: [{ type, body (base64) }] } → for each body, what Next's action handler
//     would get: "ok" when decodeReply / decodeReplyFromBusboy fulfils with an array of at most 1000
//     arguments AND every promise, stream and iterator inside settles without an error; otherwise
//     "error: …" (a 500 in Next) or "hang" (never settles).
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

const require = createRequire(import.meta.url);
const server = require("next/dist/compiled/react-server-dom-turbopack/server.node");
const client = require("next/dist/compiled/react-server-dom-turbopack/client.node");
const Busboy = require("next/dist/compiled/busboy");

/** The one server action this oracle knows (a "$h" reference to any other id fails, as in Next). */
const KNOWN_ACTION = "7f00000000000000000000000000000000000000aa";
async function knownAction() {}
globalThis.__next_require__ = () => ({ knownAction });
globalThis.__next_chunk_load__ = () => Promise.resolve();
const serverModuleMap = new Proxy(
  {},
  {
    get(_, id) {
      if (id === KNOWN_ACTION) return { id: "module", chunks: [], name: "knownAction" };
      if (typeof id === "string") throw new Error(`Failed to find Server Action "${id}".`);
      return undefined;
    },
  },
);

const withTimeout = (p, ms) =>
  Promise.race([
    p,
    new Promise((_, rej) => setTimeout(() => rej(Object.assign(new Error("hang"), { hang: true })), ms)),
  ]);

/** Waits for everything an action could await inside the arguments. */
async function settle(value, seen = new Set()) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return;
  if (seen.has(value)) return;
  seen.add(value);
  if (typeof value === "function") return; // a server reference or a temporary reference
  if (typeof value.then === "function") return settle(await withTimeout(Promise.resolve(value), 500), seen);
  if (typeof ReadableStream === "function" && value instanceof ReadableStream) {
    const reader = value.getReader();
    for (;;) {
      const { done, value: item } = await withTimeout(reader.read(), 500);
      if (done) return;
      await settle(item, seen);
    }
  }
  if (typeof value[Symbol.asyncIterator] === "function") {
    const it = value[Symbol.asyncIterator]();
    for (;;) {
      const { done, value: item } = await withTimeout(it.next(), 500);
      await settle(item, seen);
      if (done) return;
    }
  }
  if (
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    value instanceof Blob ||
    value instanceof Date
  )
    return;
  if (value instanceof FormData) return;
  if (value instanceof Map) {
    for (const [k, v] of value) {
      await settle(k, seen);
      await settle(v, seen);
    }
    return;
  }
  if (value instanceof Set) {
    for (const v of value) await settle(v, seen);
    return;
  }
  if (typeof value[Symbol.iterator] === "function" && !Array.isArray(value)) {
    for (const v of value) await settle(v, seen);
    return;
  }
  for (const key of Object.keys(value)) await settle(value[key], seen);
}

async function decode({ type, body }) {
  const bytes = Buffer.from(body, "base64");
  const temporaryReferences = server.createTemporaryReferenceSet();
  try {
    let args;
    if (type.toLowerCase().startsWith("multipart/form-data")) {
      // as next/dist/server/app-render/action-handler.js does for a fetch action
      const busboy = Busboy({
        defParamCharset: "utf8",
        headers: { "content-type": type },
        limits: { fieldSize: 1024 * 1024 },
      });
      [, args] = await withTimeout(
        Promise.all([
          pipeline(Readable.from([bytes]), busboy),
          server.decodeReplyFromBusboy(busboy, serverModuleMap, { temporaryReferences }),
        ]),
        2000,
      );
    } else {
      args = await withTimeout(
        server.decodeReply(bytes.toString("utf8"), serverModuleMap, { temporaryReferences }),
        2000,
      );
    }
    if (!Array.isArray(args)) return "error: the arguments are not an array";
    if (args.length > 1000) return "error: too many arguments";
    await settle(args);
    return "ok";
  } catch (err) {
    return err && err.hang ? "hang" : `error: ${err && err.message}`;
  }
}

/** Argument lists covering every kind of value encodeReply writes, and the app's own shapes. */
function samples() {
  const form = new FormData();
  form.append("token", "abc");
  form.append("token", "second");
  form.append("file", new Blob(["hello"], { type: "text/plain" }), "a.txt");
  const shared = { a: 1 };
  const cyclic = { name: "loop" };
  cyclic.self = cyclic;
  const map = new Map([
    ["k", { nested: [1, 2] }],
    [{ key: true }, "v"],
  ]);
  const action = client.createServerReference(KNOWN_ACTION, () => Promise.resolve());
  const bound = action.bind(null, "first", { second: 2 });
  const stream = new ReadableStream({
    start(c) {
      c.enqueue({ row: 1 });
      c.enqueue("two");
      c.close();
    },
  });
  const bytes = new ReadableStream({
    type: "bytes",
    start(c) {
      c.enqueue(new Uint8Array([1, 2, 3]));
      c.close();
    },
  });
  async function* gen() {
    yield 1;
    yield { two: 2 };
    return "done";
  }
  return [
    [],
    [{ campaignId: "c1", text: "hello" }],
    ["cmp_1", "approved", "looks fine"],
    [{ campaignId: "x" }, null],
    ["$dollar", "$$", "$", "$F1", "$Q1", "x$"],
    [undefined, Infinity, -Infinity, NaN, -0, 10n ** 40n, new Date(0), true, false, 0, -1.5],
    [form],
    [new FormData()],
    [map, new Set([1, "two", { three: 3 }])],
    [new Map(), new Set()],
    [new Blob(["blob"]), new Blob([])],
    [new ArrayBuffer(8), new Int8Array([1]), new Uint8Array([1, 2]), new Uint8ClampedArray([3])],
    [new Int16Array([1, 2]), new Uint16Array([3]), new Int32Array([4]), new Uint32Array([5])],
    [new Float32Array([1.5]), new Float64Array([2.5]), new BigInt64Array([1n]), new BigUint64Array([2n])],
    [new DataView(new ArrayBuffer(3))],
    [[shared, shared], { again: shared }],
    [cyclic],
    [map, map],
    [Promise.resolve({ later: 1 })],
    [Promise.resolve(new Map([["m", 1]]))],
    [stream],
    [bytes],
    [gen()],
    [{ [Symbol.iterator]: undefined, list: [1, 2, 3].values() }],
    [[1, 2, 3].values()],
    [action],
    [bound],
    [{ deep: { deeper: { deepest: [[[["x"]]]] } } }],
    [Array.from({ length: 1000 }, (_, i) => i)],
    ["x".repeat(100_000)],
  ];
}

async function encodeAll() {
  const out = [];
  for (const args of samples()) {
    const body = await client.encodeReply(args, {
      temporaryReferences: client.createTemporaryReferenceSet(),
    });
    if (typeof body === "string")
      out.push({ type: "text/plain;charset=UTF-8", body: Buffer.from(body).toString("base64") });
    else {
      // exactly the bytes and header fetch() sends for a FormData body
      const res = new Response(body);
      out.push({
        type: res.headers.get("content-type"),
        body: Buffer.from(await res.arrayBuffer()).toString("base64"),
      });
    }
  }
  return out;
}

(async () => {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  const req = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  let answer;
  if (req.op === "encode") answer = await encodeAll();
  else {
    answer = await Promise.all(req.bodies.map(decode));
  }
  process.stdout.write(JSON.stringify(answer));
  process.exit(0);
})().catch((err) => {
  process.stderr.write(String(err && err.stack));
  process.exit(1);
});
