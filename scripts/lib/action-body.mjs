// Server-action bodies, checked before Next decodes them (issue 31 item 5). Pure: no I/O beyond
// parsing the bytes given; the front server (scripts/lib/front-server.mjs) calls it, unit tests import it.
//
// Next hands an action's body to React's reply decoder (react-server-dom-*/server: decodeReply for a
// text body, decodeReplyFromBusboy for a multipart one, decodeAction for a form posted without
// JavaScript). Any failure there — a reference to a part the body does not have, a part of the wrong
// kind, a multipart body that does not parse — surfaces as a 500. This module answers the same
// question React would, without running anything: does every reference in the reply resolve to a
// part or value that is present and of the kind the tag asks for? It mirrors React 19's reply grammar
// (parseModelString / getOutlinedModel / parseTypedArray / parseReadableStream / resolveField):
//
//   "$$…" escaped string      "$u…" / "$H" undefined   "$I…" Infinity  "$-0" / "$-…" ±0/-Infinity
//   "$N…" NaN                 "$D…" Date               "$n<digits>" BigInt (at most 300 characters)
//   "$T" temporary reference (only where React gives the value a reference path)
//   "$<hex>[:path]"  a model row (part <hex>, a JSON text), optionally a path into it
//   "$Q<hex>[:path]" Map, "$W…" Set, "$i…" iterator — a row whose value is an array (Map: of entries),
//                    each consumed once
//   "$h<hex>[:path]" server reference — a row {"id": <a known action>, "bound": null | "$@<hex>"}
//   "$@<hex>"        promise — a model row anywhere in the body
//   "$K<x>"          FormData — the entries named "_<x>_…" (any number, including none)
//   "$B<hex>"        Blob — a file part; "$A" ArrayBuffer, "$O o U S s L l G g M m V" typed arrays
//                    and DataView — a file part used once, whose size is a multiple of the element size
//   "$R/$r/$X/$x<hex>" streams and async iterables — rows "S<hex>" ending with a "C" row
//
// A text body is a single row "0": it has no parts, so every reference to a part fails there. In a
// multipart body Next decodes the root row as soon as it arrives, so the rows and files it needs
// must come before it (which is how React's encodeReply writes them); rows reached through "$@" are
// decoded after the whole body. Anything else that encodeReply never writes (unknown or duplicate part
// names, a base64 file, a stream row after its close) is refused too: refusing costs a legitimate
// client nothing, and a guess about React's handling of it could be a 500.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const MESSAGES = {
  malformed: "The form data of this request is malformed.",
  notArray: "A server action's arguments must be sent as a JSON array.",
  tooDeep: "A server action's arguments are nested too deeply.",
  tooMany: "A server action takes at most 1000 arguments.",
  tooLarge: "A server action's arguments hold too many values.",
  reference:
    "A server action's arguments refer to a part of the request that is missing or of the wrong kind.",
};

/** Nesting React's decoder may recurse through (its stack overflows on thousands): JSON depth plus references followed. */
export const MAX_DEPTH = 64;
/** React's arraySizeLimit default (Next sets none): past it, "Maximum array nesting exceeded" is thrown. */
export const ARRAY_SIZE_LIMIT = 1e6;
const BIGINT_DIGITS = 300;
const BOUND_ARGS_LIMIT = 1000;
/** Next's SERVER_ACTION_ARGS_LIMIT: more arguments throw before the action runs. */
export const ARGS_LIMIT = 1000;

/** Typed-array tags and the size of their elements (parseTypedArray). "A" (ArrayBuffer) is not a view. */
const TYPED = { A: 1, O: 1, o: 1, U: 1, S: 2, s: 2, L: 4, l: 4, G: 4, g: 8, M: 8, m: 8, V: 1 };
/** Every tag parseModelString knows; after "$", anything else is the hex id of a row. */
const TAGS = new Set([..."$@hHTQWKiI-NuDnBRrXx", ...Object.keys(TYPED)]);

class Refused extends Error {
  constructor(message) {
    super(message);
    this.refused = true;
  }
}
const refuse = (message = MESSAGES.reference) => {
  throw new Refused(message);
};

// A part id as React writes it (decimal, as the key its lookups build from a number): no leading
// zeros, no sign, and small enough that the number prints back the same.
const isCanonicalId = (s) => /^(0|[1-9][0-9]{0,14})$/.test(s);
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isPlain = (v) => v !== null && typeof v === "object";

/**
 * Decides whether React's reply decoder would resolve this reply without an error.
 * `entries` are the parts in the order they arrived: { name, kind: "field" | "file", value, size }.
 * `mode`: "text" (a JSON body: the single row "0"), "stream" (a fetch action's multipart body, decoded
 * part by part as Next's busboy delivers it) or "closed" (a form posted without JavaScript: React
 * decodes the bound-action metadata after the whole form is read).
 * Returns null when it resolves, or the message to answer 400 with.
 * @typedef {{ name: string, kind: "field" | "file", value?: string, size: number }} Entry
 * @param {Entry[]} entries
 * @param {{ mode?: "text" | "stream" | "closed", prefix?: string, temporaryReferences?: boolean,
 *   isServerReference?: (id: string) => boolean, root?: (chunk: any, reply: any) => void }} [options]
 * @returns {string | null}
 */
export function checkReply(
  entries,
  { mode = "text", prefix = "", temporaryReferences = true, isServerReference = () => false, root } = {},
) {
  try {
    new Reply(entries, { mode, prefix, temporaryReferences, isServerReference }).check(root);
    return null;
  } catch (err) {
    if (err && err.refused) return err.message;
    // A bug here must not become the very 500 this module exists to prevent: refuse instead.
    return MESSAGES.reference;
  }
}

class Reply {
  constructor(entries, opts) {
    this.mode = opts.mode;
    this.closed = opts.mode !== "stream";
    this.temporaryReferences = opts.temporaryReferences;
    this.isServerReference = opts.isServerReference;
    this.rows = new Map(); // id → { pos, text }
    this.files = new Map(); // id → { pos, size }
    this.streamRows = new Map(); // id → [{ pos, text }]
    this.formEntries = []; // names after the prefix, "_<x>_…"
    this.chunks = new Map(); // id → { kind: "row" | "typed" | "stream", … }
    this.rootArrays = new WeakMap(); // raw array → its array-size context (React's _rootArrayContexts)
    this.consumed = new WeakSet(); // arrays turned into a Map, Set or iterator
    this.lazy = []; // rows reached through "$@": decoded once the whole body is in
    this.promised = new Set(); // ids React has a (pending) chunk for through "$@"
    this.streams = []; // [{ id, kind, horizon }]
    const { prefix } = opts;
    entries.forEach((entry, pos) => {
      if (!entry.name.startsWith(prefix)) {
        if (this.mode === "closed") return; // a form's own fields sit beside the action's metadata
        refuse(MESSAGES.malformed);
      }
      const name = entry.name.slice(prefix.length);
      if (name.startsWith("_")) {
        if (!/^_[^_]*_/.test(name)) refuse(MESSAGES.malformed);
        this.formEntries.push(name);
      } else if (name.startsWith("S")) {
        const id = name.slice(1);
        if (!isCanonicalId(id) || entry.kind !== "field") refuse(MESSAGES.malformed);
        const list = this.streamRows.get(Number(id)) ?? [];
        list.push({ pos, text: entry.value });
        this.streamRows.set(Number(id), list);
      } else {
        if (!isCanonicalId(name)) refuse(MESSAGES.malformed);
        const id = Number(name);
        if (this.rows.has(id) || this.files.has(id)) refuse(MESSAGES.malformed);
        if (entry.kind === "field") this.rows.set(id, { pos, text: entry.value });
        else this.files.set(id, { pos, size: entry.size });
      }
    });
  }

  check(rootCheck) {
    const root = this.rows.get(0);
    if (!root) refuse(this.mode === "text" ? MESSAGES.notArray : MESSAGES.malformed);
    const value = this.initialize(0, this.closed ? Infinity : root.pos);
    if (rootCheck) rootCheck(value, this);
    // rows reached through "$@" are decoded once the body has been read (the action awaits them)
    while (this.lazy.length) this.initialize(this.lazy.shift(), Infinity, 0);
    for (const s of this.streams) this.checkStream(s);
  }

  /** A model row, decoded once (getChunk + initializeModelChunk); returns the chunk. */
  initialize(id, horizon, depth = 0) {
    const known = this.chunks.get(id);
    if (known) {
      if (known.kind !== "row") refuse(); // a stream or a typed array's part used as a row
      return known;
    }
    const row = this.rows.get(id);
    if (!row || row.pos > horizon) refuse(); // missing, or (multipart) sent after the row that needs it
    const chunk = { kind: "row", id, done: false, ctx: { count: 0, fork: false }, value: undefined };
    this.chunks.set(id, chunk);
    let raw;
    try {
      raw = JSON.parse(row.text);
    } catch {
      refuse(id === 0 && this.mode === "text" ? MESSAGES.notArray : MESSAGES.reference);
    }
    chunk.value = raw;
    this.revive(raw, chunk.ctx, id.toString(16), horizon, depth);
    chunk.done = true;
    for (const w of chunk.waiters ?? []) this.bumpFromPath(w.ctx, chunk, w.path);
    return chunk;
  }

  bump(ctx, slots) {
    if (!ctx) return;
    ctx.count += slots;
    if (ctx.count > ARRAY_SIZE_LIMIT && ctx.fork) refuse(MESSAGES.tooLarge);
  }

  /** reviveModel: walks a row's JSON as React does, in place of building the values. */
  revive(value, arrayRoot, reference, horizon, depth) {
    if (depth > MAX_DEPTH) refuse(MESSAGES.tooDeep);
    if (typeof value === "string") return this.parseString(value, arrayRoot, reference, horizon, depth);
    if (!isPlain(value)) return;
    if (Array.isArray(value)) {
      let ctx = arrayRoot;
      if (!ctx) {
        ctx = { count: 0, fork: false };
        this.rootArrays.set(value, ctx);
      }
      if (value.length > 1) ctx.fork = true;
      this.bump(ctx, value.length + 1);
      value.forEach((item, i) =>
        this.revive(item, ctx, reference !== undefined ? `${reference}:${i}` : undefined, horizon, depth + 1),
      );
      return;
    }
    for (const key of Object.keys(value)) {
      if (key === "__proto__") continue; // React deletes it
      const ref = reference !== undefined && !key.includes(":") ? `${reference}:${key}` : undefined;
      this.revive(value[key], null, ref, horizon, depth + 1);
    }
  }

  parseString(value, arrayRoot, reference, horizon, depth) {
    if (value[0] !== "$") return this.bump(arrayRoot, value.length);
    const tag = value[1];
    const rest = value.slice(2);
    switch (tag) {
      case "$":
        return this.bump(arrayRoot, value.length - 1);
      case "u":
      case "H":
      case "I":
      case "-":
      case "N":
      case "D":
        return;
      case "n":
        if (rest.length > BIGINT_DIGITS) refuse();
        try {
          BigInt(rest);
        } catch {
          refuse();
        }
        return this.bump(arrayRoot, rest.length);
      case "T":
        if (reference === undefined || !this.temporaryReferences) refuse();
        return;
      case "@": {
        if (this.mode === "text") refuse();
        const id = parseInt(rest, 16);
        const known = this.chunks.get(id);
        if (known ? known.kind !== "row" : !this.rows.has(id)) refuse();
        if (!known && !this.promised.has(id)) this.lazy.push(id);
        this.promised.add(id);
        return;
      }
      case "K":
        if (this.mode === "text") refuse();
        return;
      case "B": {
        const file = this.files.get(parseInt(rest, 16));
        if (!file || file.pos > horizon) refuse();
        return;
      }
      case "R":
      case "r":
      case "X":
      case "x":
        return this.openStream(parseInt(rest, 16), tag, horizon);
      case "Q":
      case "W":
      case "i":
        return this.collection(rest, tag, horizon, depth);
      case "h":
        return this.serverReference(rest, horizon, depth);
      default:
        if (tag !== undefined && hasOwn(TYPED, tag)) return this.typedArray(parseInt(rest, 16), tag, horizon);
        return this.outlined(value.slice(1), arrayRoot, horizon, depth);
    }
  }

  /** getOutlinedModel: "<hex>[:key…]" — the row, then each key an own property of a plain object or array. */
  resolvePath(reference, horizon, depth) {
    const [head, ...path] = reference.split(":");
    const id = parseInt(head, 16);
    if (this.mode === "text" && id !== 0) refuse();
    if (depth > MAX_DEPTH) refuse(MESSAGES.tooDeep);
    const chunk = this.chunks.get(id) ?? this.initialize(id, horizon, depth);
    if (chunk.kind !== "row") refuse();
    return { chunk, path };
  }

  walk(chunk, path) {
    let value = chunk.value;
    for (const key of path) {
      if (
        !isPlain(value) ||
        key === "__proto__" ||
        !hasOwn(value, key) ||
        (Array.isArray(value) && !/^\d+$/.test(key))
      )
        refuse();
      value = value[key];
    }
    return value;
  }

  outlined(reference, arrayRoot, horizon, depth) {
    const { chunk, path } = this.resolvePath(reference, horizon, depth + 1);
    if (!chunk.done) {
      // a reference into a row still being decoded (a cycle): React waits for it, then checks the path
      (chunk.waiters ??= []).push({ ctx: arrayRoot, path });
      return;
    }
    this.bumpFromPath(arrayRoot, chunk, path);
  }

  /** The path must hold, and the referring array's size counts what it now holds (bumpArrayCount). */
  bumpFromPath(arrayRoot, chunk, path) {
    let value = chunk.value;
    let ctx = chunk.ctx;
    let length = 0;
    for (const key of path) {
      if (
        !isPlain(value) ||
        key === "__proto__" ||
        !hasOwn(value, key) ||
        (Array.isArray(value) && !/^\d+$/.test(key))
      )
        refuse();
      value = value[key];
      if (Array.isArray(value)) {
        length = 0;
        ctx = this.rootArrays.get(value) ?? ctx;
      } else {
        ctx = null;
        length = 0;
        if (typeof value === "string") {
          // the value React holds there once the row is decoded
          if (value[0] !== "$") length = value.length;
          else if (value[1] === "$") length = value.length - 1;
          else if (value[1] === "n") length = Math.max(1, value.replace(/^-/, "").length - 2);
          else if (!TAGS.has(value[1])) refuse(); // a path ending on a reference to another row: encodeReply never writes one
        }
      }
    }
    if (!arrayRoot) return;
    if (ctx) {
      if (ctx.fork) arrayRoot.fork = true;
      this.bump(arrayRoot, ctx.count);
    } else if (length > 0) this.bump(arrayRoot, length);
  }

  collection(reference, tag, horizon, depth) {
    const { chunk, path } = this.resolvePath(reference, horizon, depth + 1);
    if (!chunk.done) refuse(); // a Map/Set/iterator of a row still being decoded: React has no array yet
    const value = this.walk(chunk, path);
    if (!Array.isArray(value) || this.consumed.has(value)) refuse();
    if (tag === "Q" && !value.every((entry) => Array.isArray(entry))) refuse();
    this.consumed.add(value);
  }

  serverReference(reference, horizon, depth) {
    const { chunk, path } = this.resolvePath(reference, horizon, depth + 1);
    if (!chunk.done) refuse();
    const meta = this.walk(chunk, path);
    if (
      !isPlain(meta) ||
      Array.isArray(meta) ||
      typeof meta.id !== "string" ||
      !this.isServerReference(meta.id)
    )
      refuse();
    if (meta.bound === null || meta.bound === undefined) return;
    if (typeof meta.bound !== "string" || !meta.bound.startsWith("$@")) refuse();
    const bound = this.initialize(parseInt(meta.bound.slice(2), 16), Infinity, depth + 1);
    if (!Array.isArray(bound.value) || bound.value.length > BOUND_ARGS_LIMIT) refuse();
  }

  typedArray(id, tag, horizon) {
    if (this.chunks.has(id) || this.promised.has(id)) refuse(); // "Already initialized typed array."
    const file = this.files.get(id);
    if (!file || file.pos > horizon || file.size % TYPED[tag] !== 0) refuse();
    this.chunks.set(id, { kind: "typed" });
  }

  openStream(id, tag, horizon) {
    if (this.mode === "text" || this.chunks.has(id) || this.promised.has(id)) refuse(); // "Already initialized stream."
    this.chunks.set(id, { kind: "stream" });
    this.streams.push({ id, tag, horizon });
  }

  /** A stream's rows: each a model (for a byte stream, a typed array), the last one "C" (closed). */
  checkStream({ id, tag, horizon }) {
    const rows = this.streamRows.get(id) ?? [];
    const closeAt = rows.findIndex((r) => r.text[0] === "C");
    if (rows.length === 0 || closeAt !== rows.length - 1) refuse(); // never closed, or rows after the close
    rows.forEach((row, i) => {
      const text = i === closeAt ? row.text.slice(1) : row.text;
      if (i === closeAt && (text === "" || tag === "R" || tag === "r")) return;
      const at = Math.max(row.pos, horizon);
      let raw;
      try {
        raw = JSON.parse(text);
      } catch {
        refuse();
      }
      if (
        tag === "r" &&
        !(typeof raw === "string" && raw[0] === "$" && hasOwn(TYPED, raw[1]) && raw[1] !== "A")
      )
        refuse();
      this.revive(raw, { count: 0, fork: false }, undefined, at, 0);
    });
  }
}

// ---- parsing the body as Next does -------------------------------------------------------------

/**
 * A multipart body parsed by the parser Next's action handler uses for fetch actions (its compiled
 * busboy, with the same options). Resolves to the parts in order, or null when it does not parse.
 */
/** @returns {Promise<Entry[] | null>} */
export function parseMultipart(body, contentType, fieldSize = 1024 * 1024) {
  return new Promise((resolve) => {
    let bb;
    try {
      const Busboy = require("next/dist/compiled/busboy");
      bb = Busboy({
        defParamCharset: "utf8",
        headers: { "content-type": contentType },
        limits: { fieldSize },
      });
    } catch {
      return resolve(null);
    }
    const entries = [];
    let failed = false;
    bb.on("field", (name, value) =>
      entries.push({ name, kind: "field", value, size: Buffer.byteLength(value) }),
    );
    bb.on("file", (name, stream, info) => {
      const entry = { name, kind: "file", value: undefined, size: 0 };
      entries.push(entry);
      // React refuses base64-encoded uploads
      if (String(info?.encoding).toLowerCase() === "base64") failed = true;
      stream.on("data", (d) => (entry.size += d.length));
      stream.on("error", () => (failed = true));
    });
    bb.on("error", () => resolve(null));
    bb.on("close", () => resolve(failed ? null : entries));
    bb.end(body);
  });
}

/**
 * A form posted without JavaScript: Next parses it with the platform's Request.formData() (undici),
 * so the same parser decides here. Resolves to the entries in order, or null when it does not parse.
 */
export async function parseFormData(body, contentType) {
  try {
    const form = await new Response(body, { headers: { "content-type": contentType } }).formData();
    const entries = [];
    for (const [name, value] of form.entries())
      entries.push(
        typeof value === "string"
          ? { name, kind: "field", value, size: Buffer.byteLength(value) }
          : { name, kind: "file", value: undefined, size: value.size },
      );
    return entries;
  } catch {
    return null;
  }
}

/** How deep a JSON text nests (brackets outside strings): Next's decoder recurses, and overflows on thousands. */
export function jsonDepth(text) {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

const rootIsArray = (chunk) => {
  if (!Array.isArray(chunk.value)) refuse(MESSAGES.notArray);
  if (chunk.value.length > ARGS_LIMIT) refuse(MESSAGES.tooMany);
};

/**
 * A fetch action's body (a request with a Next-Action header): null when Next can decode it, else
 * the message to answer 400 with. `isServerReference(id)`: whether an action id is one of the app's
 * (for "$h" references); by default none is.
 * @param {{ contentType?: string, body: Buffer, isServerReference?: (id: string) => boolean }} request
 * @returns {Promise<string | null>}
 */
export async function checkActionBody({ contentType = "", body, isServerReference }) {
  const type = String(contentType).toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const entries = await parseMultipart(body, String(contentType));
    if (!entries) return MESSAGES.malformed;
    return checkReply(entries, { mode: "stream", isServerReference, root: rootIsArray });
  }
  const text = body.toString("utf8");
  let args;
  try {
    args = JSON.parse(text);
  } catch {
    return MESSAGES.notArray;
  }
  if (!Array.isArray(args)) return MESSAGES.notArray;
  if (jsonDepth(text) > MAX_DEPTH) return MESSAGES.tooDeep;
  return checkReply([{ name: "0", kind: "field", value: text, size: body.length }], {
    mode: "text",
    isServerReference,
    root: rootIsArray,
  });
}

/**
 * A multipart form posted to a page without a Next-Action header: Next parses it to look for a
 * server action ($ACTION_ID_… or $ACTION_REF_… with its metadata). Null when Next can handle it, else
 * the message to answer 400 with.
 * @param {{ contentType?: string, body: Buffer, isServerReference?: (id: string) => boolean }} request
 * @returns {Promise<string | null>}
 */
export async function checkFormPost({ contentType = "", body, isServerReference }) {
  const entries = await parseFormData(body, String(contentType));
  if (!entries) return MESSAGES.malformed;
  for (const { name } of entries) {
    if (!name.startsWith("$ACTION_REF_")) continue;
    // decodeAction reads the bound action's metadata from "$ACTION_<n>:0" at once (it must not wait)
    const prefix = `$ACTION_${name.slice("$ACTION_REF_".length)}:`;
    const problem = checkReply(entries, {
      mode: "closed",
      prefix,
      temporaryReferences: false,
      isServerReference,
      root: (chunk, reply) => {
        const meta = chunk.value;
        if (!isPlain(meta) || Array.isArray(meta) || typeof meta.id !== "string") refuse();
        if (meta.bound === null || meta.bound === undefined) return;
        if (typeof meta.bound !== "string" || !meta.bound.startsWith("$@")) refuse();
        const bound = reply.initialize(parseInt(meta.bound.slice(2), 16), Infinity);
        if (!Array.isArray(bound.value) || bound.value.length > BOUND_ARGS_LIMIT) refuse();
      },
    });
    // Next itself answers a metadata part that is absent or names no known action (400/404)
    if (problem && entries.some((e) => e.name === `${prefix}0`)) return problem;
  }
  return null;
}
