/**
 * How many of an event page's long lists it sends at first (the newest); "Show more" adds as many
 * again (issue 8: a page with thousands of backers and comments stays light). Kept free of imports:
 * proxy.ts needs them to know whose own entries a page shows (lib/cache/visitor-version.ts).
 */
export const EVENT_COMMITMENTS_LIMIT = 10;
export const COMMENTS_SHOWN = 10;
