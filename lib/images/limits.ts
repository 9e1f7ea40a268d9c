/** Cover images (issue 17): what an upload may be and what is kept. */
export const COVER_MAX_BYTES = 5 * 1024 * 1024;
/** Decoding refuses anything larger (sharp limitInputPixels): 40 megapixels is a big phone photo. */
export const COVER_MAX_PIXELS = 40_000_000;
export const COVER_FORMATS = ["jpeg", "png", "webp"] as const;
/** The widths kept, as WebP; pages pick one with srcset. */
export const COVER_WIDTHS = { small: 480, medium: 960, large: 1600 } as const;
export type CoverSize = keyof typeof COVER_WIDTHS;
export const COVER_SIZES = Object.keys(COVER_WIDTHS) as CoverSize[];
/** Uploads per organizer per hour (a few tries per event is plenty). */
export const COVER_UPLOAD_LIMIT = { limit: 30, windowMs: 3600_000 } as const;

/** The URL of one width of a cover (served immutable: a new cover is a new id). */
export const coverUrl = (imageId: string, size: CoverSize) => `/images/covers/${imageId}/${size}`;

/** A srcset over every kept width. */
export const coverSrcSet = (imageId: string) =>
  COVER_SIZES.map((s) => `${coverUrl(imageId, s)} ${COVER_WIDTHS[s]}w`).join(", ");
