/**
 * SPEC §5/§9: a comment is non-empty after trimming and at most 500 characters. Kept apart from the
 * zod schema so the comment form can show the counter without loading zod with the page.
 */
export const COMMENT_MAX = 500;

export const COMMENT_REQUIRED = "Please write a comment first.";
export const COMMENT_TOO_LONG = `Comments can be at most ${COMMENT_MAX} characters.`;
