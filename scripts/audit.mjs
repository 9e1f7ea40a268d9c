#!/usr/bin/env node
// CI gate (issue 9): `npm audit --omit=dev` must report no high or critical advisory.
// Fails (exit 1) when production dependencies have such advisories. When the advisory service
// cannot be reached at all (no network, or a registry mirror that refuses the audit POST with
// 405), the result is unknown: it fails too if AUDIT_REQUIRED=true, otherwise it says so loudly
// and passes, so CI still runs on machines that only reach a package mirror.
import { spawnSync } from "node:child_process";

const run = spawnSync("npm", ["audit", "--omit=dev", "--json"], {
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
let report;
try {
  report = JSON.parse(run.stdout || "{}");
} catch {
  report = {};
}

const counts = report?.metadata?.vulnerabilities;
if (counts) {
  const serious = (counts.high ?? 0) + (counts.critical ?? 0);
  const summary = Object.entries(counts)
    .filter(([k]) => k !== "total")
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  if (serious > 0) {
    console.log(`npm audit --omit=dev: ${summary}`);
    for (const [name, v] of Object.entries(report.vulnerabilities ?? {})) {
      if (v.severity === "high" || v.severity === "critical") {
        const via = (v.via ?? [])
          .map((x) => (typeof x === "string" ? x : `${x.title} (${x.url})`))
          .join("; ");
        console.log(
          `  ${v.severity.padEnd(8)} ${name} ${v.range ?? ""} — ${via}${v.fixAvailable ? " [fix available]" : ""}`,
        );
      }
    }
    process.exit(1);
  }
  console.log(`npm audit --omit=dev: no high or critical advisory (${summary || "none"}).`);
  process.exit(0);
}

const why =
  report?.message ?? report?.error?.summary ?? (run.stderr || "").trim().split("\n").pop() ?? "unknown error";
if (process.env.AUDIT_REQUIRED === "true") {
  console.error(`npm audit --omit=dev could not run: ${why}`);
  process.exit(1);
}
console.warn(
  `WARNING: npm audit --omit=dev could not reach the advisory service (${why}); result unknown. Set AUDIT_REQUIRED=true to fail instead.`,
);
