import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Real processes for the fault suite: the production server through scripts/start.mjs (its own
 * process group, so `kill -9` reaches the server and anything it started), HTTP helpers and the
 * suite's result lines.
 */
/** The repository (npm runs scripts from the package root). */
export const root = process.cwd();
if (!fs.existsSync(path.join(root, "scripts/start.mjs")))
  throw new Error("Run the fault suite from the repository root: npm run test:reliability");

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type App = { base: string; child: ChildProcess; log: string; exited: Promise<void> };

let appSeq = 0;
const live = new Set<ChildProcess>();

// The app runs in its own process group (detached): if the suite itself is interrupted, take the
// instances it started down with it instead of leaving them serving.
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(sig, () => {
    for (const child of live) {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }
    process.exit(130);
  });
}

export async function startApp(
  env: Record<string, string>,
  /** reuseBuild: serve the build made by the suite's first start, never rebuild */
  opts: { port: number; logDir: string; readyTimeoutMs?: number; reuseBuild?: boolean },
): Promise<App> {
  const log = path.join(opts.logDir, `app-${++appSeq}.log`);
  const fd = fs.openSync(log, "a");
  const child = spawn(process.execPath, ["--max-old-space-size=192", path.join(root, "scripts/start.mjs")], {
    cwd: root,
    // The suite builds once (the first start). Later starts serve that build even if sources changed
    // meanwhile: a rebuild into the directory a running instance serves would break that instance.
    env: {
      ...process.env,
      ...env,
      PORT: String(opts.port),
      ...(opts.reuseBuild ? { START_SKIP_BUILD: "true" } : {}),
    },
    stdio: ["ignore", fd, fd],
    detached: true, // own process group: the server (one process) and a build it runs are killed together
  });
  fs.closeSync(fd);
  live.add(child);
  const exited = new Promise<void>((r) =>
    child.once("exit", () => {
      live.delete(child);
      r();
    }),
  );
  const base = `http://127.0.0.1:${opts.port}`;
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 300_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode)
      throw new Error(`the app exited during start-up; see ${log}:\n${tail(log)}`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the app did not become healthy; see ${log}:\n${tail(log)}`);
    await sleep(250);
  }
  return { base, child, log, exited };
}

/** kill -9 of the whole process group (the server process and its children): no shutdown hook runs. */
export async function killApp(app: App) {
  if (app.child.pid) {
    try {
      process.kill(-app.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await app.exited;
}

/** A clean stop (SIGTERM to the group), used at the end of the suite. */
export async function stopApp(app: App) {
  if (app.child.exitCode !== null || app.child.signalCode) return;
  try {
    process.kill(-app.child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-app.child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }, 15_000);
  await app.exited;
  clearTimeout(timer);
}

export function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

export async function postJson(
  base: string,
  pathname: string,
  body: unknown,
  timeoutMs = 300_000,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, json };
}

export function runNode(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  if (r.status !== 0)
    throw new Error(`node ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** One result line per scenario: its figures; duplicates and lost must be 0, and every check must hold. */
export type ScenarioResult = {
  name: string;
  figures: Record<string, number | string>;
  duplicates: number;
  lost: number;
  failures: string[];
  ms: number;
};

export function formatLine(r: ScenarioResult): string {
  const ok = r.failures.length === 0 && r.duplicates === 0 && r.lost === 0;
  const figures = Object.entries(r.figures)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  const why = ok
    ? ""
    : `  <- ${[...(r.duplicates ? [`${r.duplicates} duplicate(s)`] : []), ...(r.lost ? [`${r.lost} lost`] : []), ...r.failures].join("; ")}`;
  return `${ok ? "PASS" : "FAIL"} ${r.name.padEnd(26)} ${figures} duplicates=${r.duplicates} lost=${r.lost} (${(r.ms / 1000).toFixed(1)}s)${why}`;
}
