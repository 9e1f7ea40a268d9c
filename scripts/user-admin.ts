// npm run user:admin -- <email>            grant admin to an existing account
// npm run user:admin -- <email> --revoke   take it away
// npm run user:admin -- <email> --reset-link   print a one-hour password-reset link (when no SMTP
//                                              delivers the email: reset links never show on /admin/emails)
//
// Works on DATABASE_URL when set; otherwise on the embedded database under DATA_DIR (default .data/):
// the one `npm start` is running, or started for the duration of the command. The change applies
// on the user's next request (roles are read from the database, not from the session token).
import fs from "node:fs";
import path from "node:path";
import { emailSchema } from "@/lib/auth/schema";
import { setAdminByEmail } from "@/lib/auth/service";
import { resetLinkFor } from "@/lib/auth/password-reset";
import { disconnectDb } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { dataDir, DEFAULT_DB, withDatabase } from "./lib/database-url.mjs";
import { PASSWORD, USER } from "./lib/embedded-db.mjs";

const USAGE = "Usage: npm run user:admin -- <email> [--revoke | --reset-link]";

class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** The URL of an embedded PostgreSQL already running on DATA_DIR (npm start), if any. */
function runningEmbeddedUrl(): string | null {
  const pidFile = path.join(dataDir(), "pg", "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]); // postmaster.pid: pid, data dir, start time, port, ...
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null;
  }
  return `postgresql://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/${DEFAULT_DB}`;
}

async function main(argv: string[]): Promise<string> {
  const revoke = argv.includes("--revoke");
  const resetLink = argv.includes("--reset-link");
  const unknownFlag = argv.find((a) => a.startsWith("-") && a !== "--revoke" && a !== "--reset-link");
  if (revoke && resetLink) throw new CliError(USAGE, 2);
  const positional = argv.filter((a) => !a.startsWith("-"));
  if (unknownFlag || positional.length !== 1) throw new CliError(USAGE, 2);
  const parsed = emailSchema.safeParse(positional[0]);
  if (!parsed.success) throw new CliError(`${parsed.error.issues[0].message}: ${positional[0]}`);

  const apply = async (url: string) => {
    process.env.DATABASE_URL = url;
    try {
      if (resetLink) {
        const link = await resetLinkFor(parsed.data);
        return `Password-reset link for ${parsed.data} (works once, within an hour):\n${link}`;
      }
      const { email, changed } = await setAdminByEmail(parsed.data, !revoke);
      if (revoke)
        return changed ? `${email} is no longer an admin.` : `${email} was not an admin; nothing changed.`;
      return changed ? `${email} is now an admin.` : `${email} is already an admin; nothing changed.`;
    } finally {
      await disconnectDb();
    }
  };

  if (process.env.DATABASE_URL) return apply(process.env.DATABASE_URL);
  const running = runningEmbeddedUrl();
  return running ? apply(running) : withDatabase(apply);
}

main(process.argv.slice(2))
  .then((message) => {
    console.log(message);
  })
  .catch((err: unknown) => {
    if (err instanceof CliError || isAppError(err)) {
      console.error(err.message);
      process.exit(err instanceof CliError ? err.exitCode : 1);
    }
    console.error("user:admin failed:", err);
    process.exit(1);
  });
