#!/usr/bin/env node
// npm run check:structure — the layout rules a linter does not know (issue 15 item 8; in the spirit of
// Rallly's feature-structure check). Each failure is one sentence naming the file. Tests and
// lib/generated are out of scope.
//
// 1. Every file under lib/<domain>/ has an allowed name: the common roles, or one this domain lists.
// 2. No array, Set or SQL IN list holds two or more campaign status literals outside
//    lib/campaigns/lifecycle.ts, nor two or more pledge charge states outside lib/charging/pledge-state.ts.
// 3. The campaign-id pattern lives in lib/ids.ts only.
// 4. components/ never imports from app/; lib/payments never imports lib/charging.
// 5. No source file under lib/ is over 350 lines.
// 6. No import cycle between files under lib/.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rel = (f) => path.relative(root, f).split(path.sep).join("/");

/** Roles any domain may have. */
const COMMON = [
  "service.ts",
  "queries.ts",
  "schema.ts",
  "policy.ts",
  "jobs.ts",
  "texts.ts",
  "limits.ts",
  "emails.ts",
];
/** What else each domain holds (adding a file means naming it here, on purpose). */
const DOMAIN_FILES = {
  access: ["rules.ts"],
  auth: [
    "adapter.ts",
    "admins.ts",
    "client-ip.ts",
    "common-passwords.ts",
    "email-confirmation.ts",
    "link-token.ts",
    "options.ts",
    "password.ts",
    "session-cookie.ts",
    "return-path.ts",
    "password-reset.ts",
    "viewer.ts",
  ],
  cache: ["cache-handler.cjs", "signed-path.ts", "visitor-version.ts"],
  campaigns: [
    "lifecycle.ts",
    "admin.ts",
    "countdown.ts",
    "display.ts",
    "edit.ts",
    "edit-view.ts",
    "event-time.ts",
    "fields.ts",
    "filters.ts",
    "page-sizes.ts",
    "place.ts",
    "go-ahead.ts",
    "thresholds.ts",
    "sql.ts",
    "ics.ts",
    "edit-emails.ts",
    "notifications.ts",
  ],
  cancellation: [],
  charging: [
    "pledge-state.ts",
    "payment-window.ts",
    "recovery-pass.ts",
    "run.ts",
    "pipeline.ts",
    "recovery.ts",
    "on-intent.ts",
    "notify.ts",
    "queue.ts",
  ],
  comments: [],
  deadlines: [],
  drafts: [],
  images: ["process.ts", "storage.ts"],
  ledger: ["movements.ts", "refunds.ts", "cards.ts"],
  email: ["render.ts", "transport.ts", "unsubscribe.ts"],
  jobs: ["boss.ts", "definitions.ts", "types.ts", "worker.ts"],
  payments: [
    "types.ts",
    "gateway.ts",
    "demo-gateway.ts",
    "stripe-gateway.ts",
    "stripe-client.ts",
    "stripe-connect.ts",
    "declines.ts",
    "rate-limiter.ts",
    "webhook.ts",
  ],
  payouts: ["ledger.ts", "accounts.ts", "on-transfer.ts"],
  pledges: [
    "decide.ts",
    "commit-slots.ts",
    "manage-queries.ts",
    "withdraw.ts",
    "mine.ts",
    "places.ts",
    "waitlist.ts",
    "give-up.ts",
    "commitments-csv.ts",
    "membership.ts",
    "condition-emails.ts",
    "waitlist-emails.ts",
    "digest.ts",
  ],
  privacy: ["present.ts"],
  "rate-limit": [],
  security: ["csp.ts", "redact.ts"],
  sharing: ["pace.ts"],
  updates: [],
};

const CAMPAIGN_STATUSES = ["pending", "funded", "charging", "charged", "expired", "cancelled"];
const PLEDGE_STATES = ["none", "processing", "succeeded", "failed", "requires_action", "refunded"];
const MAX_LINES = 350;

const problems = [];
const fail = (file, sentence) => problems.push(`${file}: ${sentence}`);

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (["node_modules", ".next", "generated", ".git"].includes(e.name)) continue;
      walk(p, out);
    } else out.push(p);
  }
  return out;
}

const isTest = (f) => /\.test\.tsx?$/.test(f) || f.startsWith("tests/") || f.startsWith("e2e/");
const sources = ["lib", "app", "components", "scripts"]
  .flatMap((d) => walk(path.join(root, d)))
  .concat([path.join(root, "proxy.ts")])
  .map(rel)
  .filter((f) => /\.(ts|tsx|mjs|cjs)$/.test(f) && !isTest(f) && !f.startsWith("lib/generated/"))
  .filter((f) => f !== "scripts/check-structure.mjs" && !f.startsWith("scripts/bench/"));
const read = (f) => fs.readFileSync(path.join(root, f), "utf8");

// 1. file names per domain
for (const f of sources.filter((f) => /^lib\/[^/]+\/[^/]+$/.test(f))) {
  const [, domain, name] = f.split("/");
  const allowed = DOMAIN_FILES[domain];
  if (!allowed)
    fail(f, `lib/${domain} is not a known domain: add it to DOMAIN_FILES in scripts/check-structure.mjs.`);
  else if (!COMMON.includes(name) && !allowed.includes(name))
    fail(f, `"${name}" is not an allowed file name in lib/${domain} (common roles: ${COMMON.join(", ")}).`);
}

// 2. status sets
const GROUPS = [/\[[^[\]]*\]/g, /\bIN\s*\([^()]*\)/gi];
function literalsIn(text, words) {
  const found = new Set();
  for (const m of text.matchAll(/["'`]([a-z_]+)["'`]/g)) if (words.includes(m[1])) found.add(m[1]);
  return found;
}
for (const f of sources) {
  const text = read(f);
  for (const [words, home, what] of [
    [CAMPAIGN_STATUSES, "lib/campaigns/lifecycle.ts", "campaign status literals"],
    [PLEDGE_STATES, "lib/charging/pledge-state.ts", "pledge charge states"],
  ]) {
    if (f === home) continue;
    for (const re of GROUPS)
      for (const m of text.matchAll(re)) {
        const lits = literalsIn(m[0], words);
        if (lits.size >= 2) {
          const line = text.slice(0, m.index).split("\n").length;
          fail(
            `${f}:${line}`,
            `a set of ${what} (${[...lits].join(", ")}) is written here; take it from ${home}.`,
          );
        }
      }
  }
}

// 3. the campaign-id pattern
for (const f of sources)
  if (f !== "lib/ids.ts" && /a-z0-9\]\{10,40\}/.test(read(f)))
    fail(f, "writes the campaign-id pattern; use isCampaignId / idSchema / EVENT_PATH from lib/ids.ts.");

// 4. import directions
// Import statements only (a line that starts with import/export, or a dynamic import()): not comments.
const importsOf = (text) =>
  [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?["'](@\/[^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["'](@\/[^"']+)["']\s*\)/g),
  ].map((m) => m[1]);
for (const f of sources) {
  const imports = importsOf(read(f));
  if (f.startsWith("components/") && imports.some((i) => i.startsWith("@/app/")))
    fail(f, "imports from app/; take server actions from useServerActions() (components/actions).");
  if (f.startsWith("lib/payments/") && imports.some((i) => i.startsWith("@/lib/charging")))
    fail(f, "lib/payments imports lib/charging; the payments adapter knows no domain.");
}

// 5. file size
const libFiles = sources.filter((f) => f.startsWith("lib/") && /\.(ts|tsx)$/.test(f));
for (const f of libFiles) {
  const lines = read(f).split("\n").length;
  if (lines > MAX_LINES) fail(f, `has ${lines} lines (at most ${MAX_LINES}); split it by job.`);
}

// 6. import cycles among lib files
function resolve(spec) {
  const base = path.join(root, spec.slice(2));
  for (const c of [".ts", ".tsx", "/index.ts"]) if (fs.existsSync(base + c)) return rel(base + c);
  return null;
}
const graph = new Map(
  libFiles.map((f) => [
    f,
    importsOf(read(f).replace(/^import type .*$/gm, ""))
      .map(resolve)
      .filter((d) => d && libFiles.includes(d)),
  ]),
);
const state = new Map();
const stack = [];
function visit(f) {
  state.set(f, "open");
  stack.push(f);
  for (const d of graph.get(f) ?? []) {
    if (state.get(d) === "open") {
      const cycle = stack.slice(stack.indexOf(d)).concat(d);
      fail(f, `is in an import cycle: ${cycle.join(" → ")}.`);
    } else if (!state.has(d)) visit(d);
  }
  stack.pop();
  state.set(f, "done");
}
for (const f of libFiles) if (!state.has(f)) visit(f);

if (problems.length) {
  console.error(
    `Structure check: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`,
  );
  process.exit(1);
}
console.log(`Structure check: ${sources.length} files, no problem.`);
