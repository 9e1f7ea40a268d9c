import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { issueMissingTickets } from "@/lib/tickets/service";

/**
 * Every five minutes: the confirmed places without a door ticket get theirs (issue 36). Tickets are
 * issued with each "Event Confirmed!" and on their holder's read; this finds the rest (places
 * confirmed before tickets existed, promotions), so the check-in page knows every ticket.
 */
const ticketSweeperJob = defineJob<Record<string, never>>({
  name: "ticket-sweeper",
  cron: "*/5 * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await issueMissingTickets();
  },
});

export const ticketJobs = [ticketSweeperJob];
