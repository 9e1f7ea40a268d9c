import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";

/**
 * Ids and paging (issue 15): the one home of the campaign-id pattern and of the schemas every
 * action and route handler uses for ids and "show more" pages. Ids are cuids, or the e2e
 * fixtures' ids; anything else is unknown without a database round trip.
 */
const ID_SOURCE = "[a-z0-9]{10,40}";
const ID = new RegExp(`^${ID_SOURCE}$`, "i");

export const isCampaignId = (id: string) => ID.test(id);

/** Any row id of ours (cuids: covers, pledges, comments) has the same shape. */
export const isRowId = isCampaignId;

/** An event page's path; the first group is the campaign id (the proxy's cached copies). */
export const EVENT_PATH = new RegExp(`^/campaign/(${ID_SOURCE})$`, "i");

const INVALID_ID = "Invalid id.";
const INVALID_PAGE = "Invalid page.";

/** An id field; `message` is what a malformed one says (SPEC's "Campaign not found" on the commit path). */
export const idSchema = (message: string = INVALID_ID) => z.string({ error: message }).regex(ID, message);

/** "Show more": how many rows the page already shows. */
export const offsetSchema = z
  .number({ error: INVALID_PAGE })
  .int(INVALID_PAGE)
  .min(0, INVALID_PAGE)
  .max(1_000_000, INVALID_PAGE);

/** A list's page number from a query string (?page=N): anything else is page 1. */
export const pageNumberSchema = z.coerce.number().int().min(1).max(10_000).catch(1);
