import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { idSchema } from "@/lib/ids";
import { UPDATE_MAX, UPDATE_REQUIRED, UPDATE_TOO_LONG } from "@/lib/updates/limits";

export {
  UPDATE_LIMIT_REACHED,
  UPDATE_MAX,
  UPDATE_REQUIRED,
  UPDATE_TOO_LONG,
  UPDATES_PER_DAY,
} from "@/lib/updates/limits";

export const updateTextSchema = z
  .string({ error: UPDATE_REQUIRED })
  .trim()
  .min(1, UPDATE_REQUIRED)
  .max(UPDATE_MAX, UPDATE_TOO_LONG);

export const postUpdateSchema = z.object({
  campaignId: idSchema(),
  text: updateTextSchema,
});
