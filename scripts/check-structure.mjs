#!/usr/bin/env node
// npm run check:structure — the layout rules a linter does not know (issue 15 item 8; in the spirit of
// Rallly's feature-structure check). Each failure is one sentence naming the file. Tests and
// lib/generated are out of scope.
//
// 1. Every file under lib/<domain>/ has an allowed name: the common roles, or one this domain lists.
// 2. No array, Set or SQL IN list holds two or more campaign status literals outside
//    lib/events/lifecycle.ts, nor two or more pledge charge states outside lib/ledger/pledge-state.ts.
// 3. The campaign-id pattern lives in lib/ids.ts only.
// 4. components/ never imports from app/; lib/payments never imports lib/charging.
// 5. No source file under lib/ is over 350 lines.
// 6. No import cycle between files under lib/.
// 7. The Campaign row lock, Campaign.status and the event counters are written in lib/events/ only.
// 8. lib/ folders sit in layers (LAYERS): imports go down or sideways, and no folders form a cycle.
// 9. No function in lib/ is over 80 lines.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { components, folderGraph } from "./lib/folder-graph.mjs";
import { allFunctions } from "./lib/function-length.mjs";
import { doorProblems, triggerProblems } from "./lib/event-door.mjs";

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
  access: ["rules.ts", "viewer.ts", "session-cookie.ts", "pledge-policy.ts", "payable.ts"],
  auth: [
    "adapter.ts",
    "admins.ts",
    "client-ip.ts",
    "common-passwords.ts",
    "email-confirmation.ts",
    "link-token.ts",
    "options.ts",
    "password.ts",
    "return-path.ts",
    "password-reset.ts",
  ],
  cache: ["cache-handler.cjs", "signed-path.ts", "visitor-version.ts"],
  campaigns: [
    "admin.ts",
    "countdown.ts",
    "display.ts",
    "edit.ts",
    "edit-view.ts",
    "event-fields.ts",
    "deposit-fields.ts",
    "seat-fields.ts",
    "event-field-kit.ts",
    "event-time.ts",
    "fields.ts",
    "filters.ts",
    "page-sizes.ts",
    "place.ts",
    "go-ahead.ts",
    "thresholds.ts",
    "ics.ts",
    "edit-emails.ts",
    "notifications.ts",
    "waitlist.ts",
    "membership.ts",
    "places.ts",
    "commit-slots.ts",
    "waitlist-emails.ts",
    "condition-emails.ts",
    "search.ts",
    "resubmit.ts",
  ],
  cancellation: [],
  charging: [
    "drop-unpaid.ts",
    "recovery-pass.ts",
    "run.ts",
    "pipeline.ts",
    "recovery.ts",
    "on-intent.ts",
    "notify.ts",
  ],
  comments: [],
  deadlines: [],
  drafts: [],
  events: [
    "deposit.ts",
    "seats.ts",
    "lifecycle.ts",
    "sql.ts",
    "lock.ts",
    "commit.ts",
    "counters.ts",
    "status.ts",
    "standing.ts",
    "story.ts",
    "actions.ts",
    "money-sentences.ts",
  ],
  images: ["process.ts", "storage.ts"],
  ledger: [
    "movements.ts",
    "deposits.ts",
    "refunds.ts",
    "seat-money.ts",
    "group-charges.ts",
    "cards.ts",
    "pledge-state.ts",
    "payment-window.ts",
    "queue.ts",
  ],
  email: ["render.ts", "transport.ts", "unsubscribe.ts", "ticket-image.ts"],
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
    "fees.ts",
  ],
  payouts: ["ledger.ts", "accounts.ts", "on-transfer.ts"],
  pledges: [
    "decide.ts",
    "commit-group.ts",
    "commit-rows.ts",
    "friends.ts",
    "emails.ts",
    "manage-queries.ts",
    "withdraw.ts",
    "mine.ts",
    "give-up.ts",
    "commitments-csv.ts",
    "digest.ts",
    "attention.ts",
    "excuse.ts",
    "deposits.ts",
    "seats.ts",
    "saved-cards.ts",
  ],
  privacy: ["present.ts"],
  "rate-limit": [],
  security: ["csp.ts", "redact.ts", "ticket-token.ts"],
  tickets: ["void.ts", "check-in.ts", "door-helpers.ts"],
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
    [CAMPAIGN_STATUSES, "lib/events/lifecycle.ts", "campaign status literals"],
    [PLEDGE_STATES, "lib/ledger/pledge-state.ts", "pledge charge states"],
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

// 7. the door to an event (issue 32): the Campaign row lock, its status and its counters are written
// in lib/events/ only (scripts/lib/event-door.mjs); database functions only as its listed exceptions.
for (const f of sources)
  for (const p of doorProblems(f, read(f))) fail(`${f}:${p.line}`, `${p.what}; only lib/events/ may.`);
for (const dir of fs.readdirSync(path.join(root, "prisma/migrations"), { withFileTypes: true })) {
  const f = `prisma/migrations/${dir.name}/migration.sql`;
  if (dir.isDirectory() && fs.existsSync(path.join(root, f)))
    for (const p of triggerProblems(read(f)))
      fail(
        f,
        `database function ${p.name} ${p.what}; move it into lib/events/ or list it in TRIGGER_EXCEPTIONS (scripts/lib/event-door.mjs) if it writes no status or counter.`,
      );
}

// 8. layers of lib/ (issue 32.5). Each folder of lib/ (a file directly in lib/ is a node of its
// own) sits in one layer; an import may go down or sideways, never up, and no folders form a
// cycle. Type-only imports count too. Measured by scripts/lib/folder-graph.mjs (the TypeScript
// parser); `node scripts/lib/folder-graph.mjs` prints the whole picture.
const LAYERS = [
  // pure helpers: no database, no domain
  ["base", ["env", "errors", "zod", "ids", "format", "security", "actions", "http", "health-gate"]],
  // the database, jobs, limits, the payment provider's adapter, the outbox and its transport
  ["infrastructure", ["db", "jobs", "rate-limit", "payments", "email", "health"]],
  // the one door to an event (its vocabulary, lock, transitions, counters, status) and the money
  // rows with a pledge's charge state
  ["door", ["events", "ledger"]],
  // who is asking and what they may do, what a list shows about a person, stored images
  ["rules", ["access", "privacy", "images", "tickets"]],
  // the event: its pages, edits, places (who holds one, the waitlist, members), go-ahead, emails
  ["event", ["campaigns"]],
  // charging and payouts
  ["money", ["charging", "payouts"]],
  // accounts, commitments and what happens to them, and the event's other features
  ["people", ["auth", "pledges", "deadlines", "cancellation", "comments", "updates", "drafts", "sharing"]],
  // what wires the domains together: every job, the derived emails, the page cache
  ["composition", ["all-jobs", "derived-emails", "cache"]],
];
{
  const layerOf = new Map(LAYERS.flatMap(([, nodes], i) => nodes.map((n) => [n, i])));
  const graph = folderGraph();
  for (const n of graph.nodes)
    if (!layerOf.has(n)) fail(`lib/${n}`, "is in no layer: add it to LAYERS in scripts/check-structure.mjs.");
  for (const e of graph.edges) {
    if (!(layerOf.get(e.to) > layerOf.get(e.from))) continue;
    const at = e.imports[0];
    fail(
      `${at.file}:${at.line}`,
      `lib/${e.from} (${LAYERS[layerOf.get(e.from)][0]}) imports lib/${e.to} (${LAYERS[layerOf.get(e.to)][0]}), a higher layer` +
        ` (${e.imports.length} import(s)); imports go down or sideways.`,
    );
  }
  for (const c of components(graph))
    if (c.length > 1) fail(`lib/${c[0]}`, `is in a folder cycle: ${c.join(", ")}.`);
}

// 9. function length (issue 32.5): a function, arrow function or method in lib/ is at most
// MAX_FUNCTION_LINES lines, from its first line to its body's closing brace (a callback counts
// inside the function it is written in, too). `node scripts/lib/function-length.mjs 80` lists them.
const MAX_FUNCTION_LINES = 80;
for (const f of allFunctions().filter((f) => f.lines > MAX_FUNCTION_LINES))
  fail(
    `${f.file}:${f.line}`,
    `${f.name} has ${f.lines} lines (at most ${MAX_FUNCTION_LINES}); split it into named steps.`,
  );

if (problems.length) {
  console.error(
    `Structure check: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`,
  );
  process.exit(1);
}
console.log(`Structure check: ${sources.length} files, no problem.`);
