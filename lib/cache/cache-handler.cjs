// Next.js cache handler (next.config.mjs `cacheHandler`): an in-memory LRU bounded in bytes.
// Why not the default: it also writes every ISR page to disk, and the visitors' pages are keyed
// by data version (lib/cache/visitor-version.ts), so old versions would pile up on disk forever.
// Here they simply fall out of a fixed memory budget (VISITOR_CACHE_MB, default 32 MB).
// Every instance keeps its own copy; correctness does not depend on sharing it, because a
// version comes from Postgres and a new version is a new key.
"use strict";

const MAX_BYTES = Number(process.env.VISITOR_CACHE_MB || 32) * 1024 * 1024;
const entries = new Map(); // key -> { entry, size }; Map order = least recently used first
let total = 0;

function sizeOf(value) {
  if (!value) return 64;
  let n = 256;
  if (typeof value.html === "string") n += value.html.length;
  if (value.rscData && value.rscData.length) n += value.rscData.length;
  if (value.segmentData && typeof value.segmentData.forEach === "function") {
    value.segmentData.forEach((buf) => (n += buf && buf.length ? buf.length : 0));
  }
  if (value.body && value.body.length) n += value.body.length;
  if (value.data) n += JSON.stringify(value.data).length;
  return n;
}

module.exports = class PactNexusCacheHandler {
  constructor() {}

  async get(key) {
    const hit = entries.get(key);
    if (!hit) return null;
    entries.delete(key);
    entries.set(key, hit); // most recently used
    return hit.entry;
  }

  async set(key, data, ctx) {
    const old = entries.get(key);
    if (old) {
      total -= old.size;
      entries.delete(key);
    }
    if (data == null) return;
    const size = sizeOf(data);
    if (size > MAX_BYTES / 4) return; // never let one entry evict most of the cache
    entries.set(key, {
      entry: { value: data, lastModified: Date.now(), tags: (ctx && ctx.tags) || [] },
      size,
    });
    total += size;
    for (const [k, v] of entries) {
      if (total <= MAX_BYTES) break;
      entries.delete(k);
      total -= v.size;
    }
  }

  async revalidateTag(tags) {
    const list = [].concat(tags || []);
    for (const [k, v] of entries) {
      const entryTags = v.entry.tags || [];
      if (entryTags.some((t) => list.includes(t))) {
        entries.delete(k);
        total -= v.size;
      }
    }
  }

  resetRequestCache() {}
};
