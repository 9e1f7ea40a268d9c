/** What an organizer is told about a cover upload. */
export const COVER_TEXTS = {
  missing: "Choose an image file to upload.",
  tooBig: "That file is larger than 5 MB. Choose a smaller image.",
  notImage: "That file is not a JPEG, PNG or WebP image.",
  tooManyPixels: "That image is too large to process (over 40 megapixels). Choose a smaller one.",
  tooSmall: "That image is too small: use one at least 480 pixels wide.",
  tooMany: (wait: string) => `Too many uploads. Please try again in ${wait}.`,
  saved: "Cover image saved.",
  removed: "Cover image removed.",
} as const;
