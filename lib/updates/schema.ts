import { z } from "zod";

export const UPDATE_MAX = 2000;
/** Organisers may post at most this many updates per event in any 24 hours (each one emails every committer). */
export const UPDATES_PER_DAY = 3;

export const UPDATE_REQUIRED = "Please write your update first.";
export const UPDATE_TOO_LONG = `Updates can be at most ${UPDATE_MAX} characters.`;
export const UPDATE_LIMIT_REACHED = `You can post at most ${UPDATES_PER_DAY} updates a day. Please try again later.`;

export const updateTextSchema = z.string({ error: UPDATE_REQUIRED }).trim().min(1, UPDATE_REQUIRED).max(UPDATE_MAX, UPDATE_TOO_LONG);

export const postUpdateSchema = z.object({
  campaignId: z.string({ error: "Invalid id." }).regex(/^[a-z0-9]{10,40}$/i, "Invalid id."),
  text: updateTextSchema,
});
export type PostUpdateInput = z.infer<typeof postUpdateSchema>;
