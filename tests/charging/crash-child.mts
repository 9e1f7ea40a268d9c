// Runs one charging run in its own process, so a test can kill it with SIGKILL mid-run (a real
// crash: no finally blocks, no cleanup). Started by tests/charging/crash.test.ts.
import { runCharging } from "@/lib/charging/service";

const campaignId = process.argv[2];
await runCharging(campaignId, { concurrency: 4 });
process.exit(0);
