// A hash of everything `next build` depends on, so `npm start` rebuilds only when it is stale.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "prisma/schema.prisma",
  "next.config.mjs",
  "postcss.config.mjs",
  "tsconfig.json",
  "package-lock.json",
  "instrumentation.ts",
  "proxy.ts",
  "middleware.ts",
];
const SKIP = new Set(["node_modules", ".next", "generated"]);

function walk(p, out) {
  if (!fs.existsSync(p)) return;
  const st = fs.statSync(p);
  if (st.isDirectory()) {
    for (const name of fs.readdirSync(p).sort()) if (!SKIP.has(name)) walk(path.join(p, name), out);
  } else if (!/\.test\.tsx?$/.test(p)) {
    out.push(p);
  }
}

export function buildHash(root) {
  const files = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
  const h = crypto.createHash("sha256");
  for (const f of files)
    h.update(path.relative(root, f)).update("\0").update(fs.readFileSync(f)).update("\0");
  // Public variables are inlined into the client bundle at build time.
  for (const [k, v] of Object.entries(process.env).sort())
    if (k.startsWith("NEXT_PUBLIC_")) h.update(`${k}=${v}\0`);
  return h.digest("hex");
}
