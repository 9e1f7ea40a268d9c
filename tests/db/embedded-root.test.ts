import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstUnreachableDir } from "../../scripts/lib/embedded-db.mjs";

// Issue 14 item 7: as root, the embedded PostgreSQL runs as the system user "postgres"; a checkout
// (or DATA_DIR) under a directory that user cannot enter — /root is mode 0700 — died with an EACCES
// stack trace from initdb. Now `npm start` stops at once with one sentence that names the fix.
const postgresUser = { uid: 4_000_001, gid: 4_000_001 }; // not the owner, not in the group: "others"

function tree(mode: number) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pn-root-"));
  fs.chmodSync(base, 0o755);
  const parent = path.join(base, "home");
  fs.mkdirSync(path.join(parent, "app"), { recursive: true });
  fs.chmodSync(parent, mode);
  return { base, parent, data: path.join(parent, "app", ".data", "pg") };
}

describe("embedded PostgreSQL as root: directories the postgres user must enter", () => {
  it("accepts a traversable parent (0755)", () => {
    const t = tree(0o755);
    expect(firstUnreachableDir([t.data], postgresUser)).toBeNull();
    fs.rmSync(t.base, { recursive: true, force: true });
  });

  it("names the first directory it cannot enter (a 0700 parent)", () => {
    const t = tree(0o700);
    expect(firstUnreachableDir([t.data], postgresUser)).toBe(t.parent);
    // the owner itself may enter
    const owner = { uid: fs.statSync(t.parent).uid, gid: -1 };
    expect(firstUnreachableDir([t.data], owner)).toBeNull();
    fs.chmodSync(t.parent, 0o755);
    fs.rmSync(t.base, { recursive: true, force: true });
  });

  it.skipIf(os.userInfo().uid !== 0)(
    "npm start under a 0700 parent stops with one sentence, no stack trace",
    () => {
      const t = tree(0o700);
      const r = spawnSync(process.execPath, ["scripts/start.mjs"], {
        cwd: path.resolve(__dirname, "../.."),
        env: {
          ...process.env,
          DATABASE_URL: "",
          DATA_DIR: path.join(t.parent, "app", ".data"),
          PORT: "3497",
          SEED_DEMO: "false",
        },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toBe(
        `[pactnexus] The embedded PostgreSQL runs as the system user "postgres" (the app is running as root), which cannot enter ${t.parent}: move the checkout to a directory other users can enter (for example /srv/pactnexus or /opt/pactnexus), or set DATABASE_URL to a PostgreSQL of your own.`,
      );
      fs.chmodSync(t.parent, 0o755);
      fs.rmSync(t.base, { recursive: true, force: true });
    },
  );
});
