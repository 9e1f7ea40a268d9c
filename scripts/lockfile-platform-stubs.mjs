// The npm registry reachable from our machines serves only Linux builds of platform-specific
// optional packages (darwin/win32/android/... answer 404), so `npm install` leaves them out of
// package-lock.json and `npm ci` then refuses the lock as out of sync. This adds a stub entry
// (version, optional, os, cpu) for each such package: npm skips them on other platforms without
// fetching, and on a machine of that platform fetches them by name and version as usual.
// Run after `npm install` changes the lock: node scripts/lockfile-platform-stubs.mjs
import fs from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = [
  "darwin",
  "win32",
  "linux",
  "android",
  "freebsd",
  "openbsd",
  "netbsd",
  "sunos",
  "aix",
  "openharmony",
  "wasi",
];
const CPU = [
  "arm64",
  "x64",
  "ia32",
  "arm",
  "ppc64",
  "s390x",
  "riscv64",
  "loong64",
  "mips64el",
  "wasm32",
  "universal",
];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p)) ?? (parts.includes("wasm32") ? "wasi" : undefined);
  let cpu = parts.find((p) => CPU.includes(p));
  if (cpu === "universal") cpu = undefined;
  return { os, cpu };
}

let added = 0;
for (const [location, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = location ? `${location}/node_modules/` : "node_modules/";
    const candidates = [`${base}${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => packages[c])) continue;
    const { os, cpu } = platformOf(dep);
    if (!os && !cpu) continue; // not a platform package: leave it to npm
    packages[`node_modules/${dep}`] = {
      version: String(version).replace(/^[~^=]/, ""),
      optional: true,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
// npm sorts package entries by path; keep that order.
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added
    ? `Added ${added} platform stub(s) to package-lock.json.`
    : "package-lock.json already lists every platform package.",
);
