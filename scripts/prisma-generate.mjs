// `prisma generate` without network: Prisma 7's CLI wants a native schema engine binary at
// start-up and tries to download one, which fails offline. Generate never runs that engine,
// so any existing executable satisfies the check (DESIGN §4).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ||= process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
env.CHECKPOINT_DISABLE = "1";

const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate", "--no-hints"], { stdio: "inherit", env });
process.exit(result.status ?? 1);
