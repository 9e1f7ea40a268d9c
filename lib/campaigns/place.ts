/**
 * Where an event is, as one viewer may see it (issue 16, DESIGN §1 "event time and place"). Who may
 * see an attendee-only address is lib/access/rules canSeeExactPlace; this only shapes the answer,
 * so pages, cached copies, .ics files, the flyer and the OG image all leave out the same things.
 */
export type PlaceFacts = {
  venue: string | null;
  address: string | null;
  onlineUrl: string | null;
  area: string | null;
  addressPrivate: boolean;
};

export type EventPlace = {
  venue: string | null;
  /** null when there is none, or it is kept for attendees and this viewer is not one */
  address: string | null;
  onlineUrl: string | null;
  area: string | null;
  /** an address or link exists that this viewer does not get */
  withheld: boolean;
};

/** The place as a viewer may see it; `exact` is canSeeExactPlace's answer. */
export function placeFor(c: PlaceFacts, exact: boolean): EventPlace {
  const hide = c.addressPrivate && !exact;
  return {
    venue: c.venue,
    address: hide ? null : c.address,
    onlineUrl: hide ? null : c.onlineUrl,
    area: c.area,
    withheld: hide && Boolean(c.address || c.onlineUrl),
  };
}

/** One line for calendars and summaries: "Roxy Cinema, 2 6th Ave" or "Roxy Cinema, Tribeca". */
export function placeLine(p: EventPlace): string | null {
  const parts = [p.venue, p.address ?? (p.withheld ? p.area : null)].filter(Boolean);
  if (parts.length) return parts.join(", ");
  return p.onlineUrl ?? (p.withheld ? "Shared with attendees" : null);
}

/** Whether the event has any place to show at all. */
export const hasPlace = (p: EventPlace) =>
  Boolean(p.venue || p.address || p.onlineUrl || p.area || p.withheld);

/** The event's time-and-place columns, as every reader selects them (pages, emails, the edit form). */
export const whenWhereSelect = {
  startsAt: true,
  endsAt: true,
  timeZone: true,
  venue: true,
  address: true,
  onlineUrl: true,
  area: true,
  addressPrivate: true,
  calendarSequence: true,
} as const;

/** Those columns as a row holds them. */
export type WhenWhereRow = PlaceFacts & {
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
  calendarSequence: number;
};
