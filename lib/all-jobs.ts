import type { JobDefinition } from "@/lib/jobs/types";
import { chargingJobs } from "@/lib/charging/jobs";
import { emailJobs } from "@/lib/email/jobs";
import { queueDerivedEmails } from "@/lib/derived-emails";
import { deadlineJobs } from "@/lib/deadlines/jobs";
import { ledgerJobs } from "@/lib/ledger/jobs";
import { rateLimitJobs } from "@/lib/rate-limit/jobs";
import { payoutJobs } from "@/lib/payouts/jobs";
import { pledgeJobs } from "@/lib/pledges/jobs";
import { ticketJobs } from "@/lib/tickets/jobs";

/**
 * Every background job of the app. Each domain defines its jobs in lib/<domain>/jobs.ts and adds
 * them here (one import and one spread per domain). This list sits above the domains (the top of
 * the layering table in scripts/check-structure.mjs): lib/jobs, the infrastructure that runs the
 * jobs, imports no domain and takes this list from instrumentation.ts.
 */
export async function allJobs(): Promise<JobDefinition[]> {
  return [
    ...emailJobs(() => queueDerivedEmails()),
    ...deadlineJobs,
    ...ledgerJobs,
    ...chargingJobs,
    ...rateLimitJobs,
    ...payoutJobs,
    ...pledgeJobs,
    ...ticketJobs,
  ];
}
