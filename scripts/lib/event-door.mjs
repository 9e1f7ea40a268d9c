// The door to an event (issue 32 item 3), for scripts/check-structure.mjs: the Campaign row lock, the
// event's status and its counters are written in lib/events/ only. Outside it, a source file fails on
//  - a `FOR UPDATE` whose FROM clause names "Campaign" (withEvent in lib/events/lock.ts takes it);
//  - an SQL `UPDATE "Campaign" … SET` that assigns "status" or a counter;
//  - a Prisma campaign update/updateMany/upsert whose data sets `status` or a counter;
//  - an `increment`/`decrement` of a counter anywhere.
// A database function (prisma/migrations) that writes the Campaign row is allowed only if it is one of
// TRIGGER_EXCEPTIONS, and none may write the status or a counter.
// Comments are ignored (a comment may name FOR UPDATE); a `data` object built elsewhere is not seen.

/** The event's counters (lib/events/counters.ts). */
export const COUNTERS = [
  "committedCount",
  "pledgeCount",
  "currentAmount",
  "raisedCents",
  "waitlistCount",
  "totalCharged",
  "totalChargedCents",
];
const WRITTEN = ["status", ...COUNTERS];

/** Where the writes live, and the files that are knowingly outside it. */
export const DOOR = "lib/events/";
export const FILE_EXCEPTIONS = {
  // demo rows are built directly, with counters equal to the rows it inserts (no transition runs)
  "scripts/demo-data.ts": "demo data",
};

/**
 * Database triggers that write the Campaign row today: they touch its `updatedAt` (the page caches'
 * version) when a pledge, comment or update changes. They write no status and no counter. pn_firm_member
 * (a pledge's memberSince) and pn_standing (Pledge.standing) write the pledge row, not the event's.
 */
export const TRIGGER_EXCEPTIONS = ["pn_touch_campaigns_new", "pn_touch_campaigns_old"];

/** The text without // and /* *\/ comments (line positions kept). */
export function stripComments(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, " "))
    .replace(/(^|[\s;,{}()])\/\/.*$/gm, (m, lead) => lead);
}

const lineOf = (text, index) => text.slice(0, index).split("\n").length;

/** The balanced (...) or {...} starting at `open` (the index of the opening bracket). */
function balanced(text, open) {
  const pairs = { "(": ")", "{": "}", "[": "]" };
  const stack = [];
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (pairs[ch]) stack.push(pairs[ch]);
    else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return text.slice(open, i + 1);
    }
  }
  return text.slice(open);
}

/**
 * The keys an object literal's text `{ … }` writes: its own, and those of objects spread into it
 * (`...(free ? { a: 1 } : {})`) — not those of a nested value (`{ creator: { connect } }`).
 */
export function topKeys(obj) {
  const keys = [];
  // one frame per open bracket: its kind, whether its keys are the outer object's, whether a value is being read
  const frames = [];
  let expectKey = false;
  for (let i = 0; i < obj.length; i++) {
    const ch = obj[i];
    const top = frames[frames.length - 1];
    const mine = frames.length > 0 && frames.every((f) => f.own);
    if (ch === '"' || ch === "'" || ch === "`") {
      const end = obj.indexOf(ch, i + 1);
      if (mine && expectKey && top?.kind === "{" && /^\s*:/.test(obj.slice(end + 1)))
        keys.push(obj.slice(i + 1, end));
      i = end < 0 ? obj.length : end;
      expectKey = false;
    } else if ("{([".includes(ch)) {
      // a bracket in a property's value holds other keys; one in a spread holds the object's own
      frames.push({ kind: ch, own: !top || !(top.kind === "{" && top.inValue), inValue: false });
      expectKey = ch === "{";
    } else if ("})]".includes(ch)) {
      frames.pop();
      expectKey = false;
    } else if (ch === "," && top) {
      top.inValue = false;
      expectKey = true;
    } else if (ch === ":" && top?.kind === "{") {
      top.inValue = true;
      expectKey = false;
    } else if (mine && expectKey && top?.kind === "{" && /[A-Za-z_$]/.test(ch)) {
      // `key: value`, or the shorthand `{ key }`
      const m = obj.slice(i).match(/^([A-Za-z_$][\w$]*)\s*[:,}]/);
      if (m) keys.push(m[1]);
      expectKey = false;
    }
  }
  return keys;
}

/** [{ line, what }] of the door's writes in one source file (`file` relative to the repository). */
export function doorProblems(file, source) {
  if (file.startsWith(DOOR) || FILE_EXCEPTIONS[file]) return [];
  const text = stripComments(source);
  const out = [];
  const add = (index, what) => out.push({ line: lineOf(text, index), what });

  // 1. the Campaign row lock
  for (const m of text.matchAll(/\bFOR\s+UPDATE\b/g)) {
    const before = text.slice(Math.max(0, m.index - 4000), m.index);
    const from = [...before.matchAll(/\bFROM\b/g)].pop();
    if (from && /"Campaign"/.test(before.slice(from.index)))
      add(m.index, 'locks the "Campaign" row (FOR UPDATE)');
  }
  // 2. SQL writes of the status or a counter
  for (const m of text.matchAll(/\bUPDATE\s+"Campaign"(?:\s+(?:AS\s+)?\w+)?\s+SET\b/g)) {
    const rest = text.slice(m.index + m[0].length);
    const end = rest.search(/\bWHERE\b|\bFROM\b|\bRETURNING\b|`/);
    const set = end < 0 ? rest : rest.slice(0, end);
    const hit = WRITTEN.find((c) => new RegExp(`(?:"${c}"|\\b${c})\\s*=`).test(set));
    if (hit) add(m.index, `writes Campaign.${hit} in SQL`);
  }
  // 3. Prisma writes of the status or a counter
  for (const m of text.matchAll(/\.campaign\s*\.\s*(update|updateMany|upsert)\s*\(/g)) {
    const args = balanced(text, m.index + m[0].length - 1);
    const objects = [];
    for (const d of args.matchAll(/\b(data|create|update)\s*:\s*\{/g))
      objects.push(balanced(args, d.index + d[0].length - 1));
    const hit = objects.flatMap(topKeys).find((k) => WRITTEN.includes(k));
    if (hit) add(m.index, `writes Campaign.${hit} with Prisma (${m[1]})`);
  }
  // 4. increments of a counter (any Prisma write, nested ones too)
  for (const m of text.matchAll(
    new RegExp(`\\b(${COUNTERS.join("|")})\\s*:\\s*\\{\\s*(increment|decrement)\\b`, "g"),
  ))
    add(m.index, `${m[2]}s ${m[1]}`);
  return out;
}

/** [{ name, what }] for the database functions of one migration that write the event row. */
export function triggerProblems(sql) {
  const out = [];
  for (const m of sql.matchAll(
    /CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+"?(\w+)"?[\s\S]*?\bAS\s+(E?'|\$\$)/gi,
  )) {
    const start = m.index + m[0].length;
    // the body ends at its closing quote ('' and \' are quotes inside it), or at the closing $$
    const close =
      m[2] === "$$" ? sql.indexOf("$$", start) : start + sql.slice(start).search(/(?<![\\'])'(?!')/);
    const body = sql.slice(start, close < start ? undefined : close);
    const name = m[1];
    const sets = [...body.matchAll(/\bUPDATE\s+"Campaign"[\s\S]*?\bSET\b([\s\S]*?)(?:\bWHERE\b|$)/gi)].map(
      (u) => u[1],
    );
    const assigned = (c) =>
      sets.some((set) => new RegExp(`"${c}"\\s*=|\\b${c}\\s*=`).test(set)) ||
      new RegExp(`NEW\\.(?:"${c}"|${c})\\s*:=`).test(body);
    const hit = WRITTEN.find(assigned);
    if (hit) out.push({ name, what: `writes Campaign.${hit}` });
    else if (sets.length > 0 && !TRIGGER_EXCEPTIONS.includes(name))
      out.push({ name, what: "writes the Campaign row" });
  }
  return out;
}
