// Demo data for `npm start` on an empty database (scripts/seed.ts runs it). Accounts are listed in
// README.md.
//
// Every money figure is one the app produced (issue 31): cards are saved through the demo gateway's
// setup, events tip through the tip the commits use, charges are made by the charging run (each with
// the demo gateway's payment intent), failed payments are retried and dropped by the recovery pass,
// and payouts are made by the payout sweeper. Events that tipped in the past are played at today's
// clock and moved back to their own time afterwards (EventClock); nothing here writes an amount.
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { env, stripeEnabled } from "@/lib/env";
import { fromWallClock, toWallClock } from "@/lib/campaigns/event-time";
import { CALLED_OFF_STATUSES } from "@/lib/events/lifecycle";
import sharp from "sharp";
import { confirmDemoSetup, createDemoSetupSecret, demoGateway } from "@/lib/payments/demo-gateway";
import { processCover } from "@/lib/images/process";
import { applyAccountState } from "@/lib/payouts/accounts";
import { listDuePayouts, runPayout } from "@/lib/payouts/service";
import { listCampaignsNeedingCharge, runCharging } from "@/lib/charging/service";
import { runPaymentRecovery } from "@/lib/charging/recovery-pass";
import { confirmJoinedIfFree, tipIfReached } from "@/lib/campaigns/membership";
import { issueTickets } from "@/lib/tickets/service";
import { refundOwedDeposits } from "@/lib/ledger/deposits";
import { commitToCampaign } from "@/lib/pledges/service";
import { claimSeat, inviteFriend } from "@/lib/pledges/friends";

export const DEMO_PASSWORD = "pactnexus-demo";
const HOUR = 3600_000;
const DAY = 24 * HOUR;

type EventSeed = {
  title: string;
  description: string;
  logisticalDetails?: string;
  goal: number;
  priceCents: number;
  days: number; // deadline from now
  pledges: number;
  approval?: "approved" | "pending" | "rejected";
  confirmed?: boolean;
  /** an event that did not happen: expired below its goal, or cancelled by the organizer */
  outcome?: (typeof CALLED_OFF_STATUSES)[number];
  /**
   * issue 19: a backer (index into the demo backers) committed early with the test card whose charge
   * fails: Alice's payment on the rooftop cinema is still open to pay; Ben's on the wine tasting was
   * dropped when its window closed (a week after the tip, so on an event already past its payout hold)
   */
  failedPayment?: { backer: number };
  /** issue 20: the most people who may be in, and how many wait on the waitlist (Alice first) */
  capacity?: number;
  waiting?: number;
  /** issue 21: commitments that count only once `minPeople` are in (not counted yet) */
  conditional?: { count: number; minPeople: number };
  /** issue 21: the organizer may go ahead from 80% of the goal */
  earlyGoAhead?: boolean;
  anonymous?: boolean;
  isTest?: boolean;
  ageDays: number; // created this many days ago
  /**
   * issue 36: a show-up deposit charged with each ticket, and the demo backers (by index) who hold the
   * places, in commit order; the first `checkedIn` of them were checked in at the door (their deposit
   * refunded), the others' deposits are held until the end plus the grace
   */
  deposit?: { cents: number; backers: number[]; checkedIn: number };
  /** issue 37: a backer not yet in commits for themselves and friends (this many people), through the app */
  group?: number;
  /**
   * issue 37, a paid group: the demo backer `holder` (by index) commits for `seats` people with a saved
   * card, names the demo backer `friend` for Guest 1, and the friend claims the seat through the emailed
   * link — all through the app (the holder's card pays for every seat, the friend's claimed one too)
   */
  paidGroup?: { seats: number; holder: number; friend: number };
};

const [EXPIRED, CANCELLED] = CALLED_OFF_STATUSES;

const EVENTS: EventSeed[] = [
  {
    title: "Sunrise Yoga in Riverside Park",
    description:
      "An hour of gentle flow yoga as the sun comes up over the river. All levels welcome; bring a mat and water. We only book the instructor if 15 of us commit.",
    logisticalDetails: "Meet at the north lawn by the boathouse, 6:15 am.",
    goal: 15,
    priceCents: 1200,
    days: 5,
    pledges: 11,
    ageDays: 9,
  },
  {
    title: "Community Garden Build Day",
    description:
      "Help turn the empty lot on Elm Street into raised vegetable beds. Tools and lunch provided by the neighbourhood association once 25 volunteers commit.",
    goal: 25,
    priceCents: 0,
    days: 21,
    pledges: 9,
    ageDays: 8,
  },
  {
    title: "Indie Film Night: Local Shorts",
    description:
      "A screening of eight short films by local filmmakers, followed by a Q&A. The cinema rents the screen to us only if 60 tickets are committed in advance.",
    logisticalDetails: "Roxy Cinema, screen 2. Doors 7:00 pm.",
    goal: 60,
    priceCents: 900,
    days: 30,
    pledges: 58,
    ageDays: 7,
  },
  {
    title: "Beginner Pottery Workshop",
    description:
      "Two hours at the wheel with a professional potter. Clay, glazing and firing included; you take home two pieces. Runs with a minimum of 8 people.",
    goal: 8,
    priceCents: 4500,
    days: 18,
    pledges: 0,
    ageDays: 6,
  },
  {
    title: "Neighbourhood Beach Cleanup",
    description:
      "Let's clear the shoreline before summer. The council lends gloves, bags and a skip if at least 20 people sign up. Kids welcome with an adult.",
    goal: 20,
    priceCents: 0,
    days: -2,
    pledges: 20,
    confirmed: true,
    ageDays: 20,
  },
  {
    title: "Natural Wine Tasting Evening",
    description:
      "Six low-intervention wines from small growers, poured and explained by the importer. The shop closes for us if 8 people book; cheese included.",
    goal: 8,
    priceCents: 3500,
    days: -9,
    pledges: 10,
    confirmed: true,
    failedPayment: { backer: 1 },
    ageDays: 20,
  },
  {
    title: "Rooftop Cinema: Summer Classics",
    description:
      "Three classic films under the stars on the Hotel Marlowe rooftop, with blankets and popcorn. The hotel opens the roof if 12 people buy a seat.",
    goal: 12,
    priceCents: 1200,
    days: -1,
    pledges: 14,
    confirmed: true,
    failedPayment: { backer: 0 },
    ageDays: 9,
  },
  {
    title: "Handmade Pasta Workshop",
    description:
      "Chef Marco teaches tagliatelle and ravioli from scratch, then we eat what we made. The kitchen runs if 8 cooks commit and fits 10; after that, a waitlist.",
    goal: 8,
    capacity: 10,
    priceCents: 3500,
    days: 6,
    pledges: 10,
    confirmed: true,
    waiting: 3,
    ageDays: 7,
  },
  {
    title: "Board Game Marathon",
    description:
      "Twelve hours of strategy games, from Catan to Twilight Imperium. The café closes for us if 30 players commit; the fee covers the room and snacks.",
    goal: 30,
    priceCents: 1500,
    days: 12,
    pledges: 17,
    conditional: { count: 5, minPeople: 25 },
    ageDays: 5,
  },
  {
    title: "Group Hike: Eagle Ridge Trail",
    description:
      "A guided 14 km hike with 600 m of climbing and lunch at the summit. A certified guide leads the group once 12 hikers commit.",
    logisticalDetails: "Carpool from the central station at 7:30 am.",
    goal: 12,
    priceCents: 2000,
    days: 9,
    pledges: 4,
    paidGroup: { seats: 3, holder: 7, friend: 8 },
    ageDays: 4,
  },
  {
    title: "Open-Air Jazz Quartet",
    description:
      "A summer evening concert in the old town square. The quartet plays if 100 people commit to a ticket; otherwise nobody pays a cent.",
    goal: 100,
    priceCents: 1800,
    days: 45,
    pledges: 37,
    ageDays: 4,
  },
  {
    title: "Coding Dojo for Kids",
    description:
      "A Saturday morning of Scratch and Python puzzles for ages 9 to 14, run by volunteer engineers. We need 10 families to book the library room.",
    goal: 10,
    priceCents: 0,
    days: 14,
    pledges: 3,
    group: 3,
    ageDays: 3,
  },
  {
    title: "Bulk Order: Local Honey",
    description:
      "The Hillside apiary sells at wholesale price if we order together: one 1 kg jar per person, delivered to the community centre. Needs 40 orders.",
    goal: 40,
    priceCents: 1100,
    days: 10,
    pledges: 39,
    earlyGoAhead: true,
    ageDays: 3,
  },
  {
    title: "Street Tree Planting",
    description:
      "The city plants a tree on our street for every resident who commits to watering it through its first summer. The programme needs 18 households.",
    goal: 18,
    priceCents: 0,
    days: 60,
    pledges: 6,
    ageDays: 2,
    anonymous: false,
  },
  {
    title: "Salsa Night with Live Band",
    description:
      "An evening of salsa with a 30-minute beginners' lesson and a live band. The venue needs 50 dancers committed to open the hall.",
    goal: 50,
    priceCents: 2500,
    days: 25,
    pledges: 22,
    ageDays: 2,
  },
  {
    title: "Repair Café: Fix Your Gadgets",
    description:
      "Bring broken toasters, lamps and bikes; volunteer fixers help you repair them. We need 15 participants to justify the tool rental.",
    goal: 15,
    priceCents: 0,
    days: 4,
    pledges: 14,
    ageDays: 1,
  },
  {
    title: "Midnight Stargazing on the Ridge",
    description:
      "A guided night of telescopes and hot chocolate with the astronomy club. The bus runs only if 30 of us commit; it did not happen this time.",
    goal: 30,
    priceCents: 1500,
    days: -3,
    pledges: 12,
    outcome: EXPIRED,
    ageDays: 20,
  },
  {
    title: "Rooftop Cinema: Classic Noir",
    description:
      "Three classic noir films on a rooftop screen with blankets and popcorn. Cancelled: the building withdrew its permit, and nobody pays.",
    goal: 40,
    priceCents: 1400,
    days: 12,
    pledges: 15,
    outcome: CANCELLED,
    ageDays: 6,
  },
  {
    title: "Charity 5K Fun Run",
    description:
      "A relaxed 5 km run around the lake raising money for the food bank. The course permit needs at least 40 runners committed in advance.",
    goal: 40,
    priceCents: 1000,
    days: 35,
    pledges: 0,
    approval: "pending",
    ageDays: 0,
  },
  {
    title: "Free Crypto Giveaway Party",
    description:
      "Come and get free coins at our launch party, everybody wins big money guaranteed, sign up now and tell all your friends.",
    goal: 500,
    priceCents: 0,
    days: 20,
    pledges: 0,
    approval: "rejected",
    ageDays: 1,
  },
  {
    title: "Riverside Salsa Social",
    description:
      "An evening of salsa on the river terrace with a DJ and a short lesson. The terrace is booked for two once both dancers commit; a $10 show-up deposit, refunded at the door, keeps the spots for people who come.",
    goal: 2,
    priceCents: 1500,
    days: -1,
    pledges: 2,
    confirmed: true,
    // Chloe came and was checked in (her deposit refunded); Diego's is held until the end plus the grace
    deposit: { cents: 1000, backers: [2, 3], checkedIn: 1 },
    ageDays: 5,
  },
  {
    title: "Test event: checkout dry run",
    description: "Internal test of the commit and charge flow. Safe to delete from the admin dashboard.",
    goal: 2,
    priceCents: 500,
    days: 3,
    pledges: 0,
    isTest: true,
    ageDays: 0,
  },
];

/**
 * When and where each demo event happens (issue 16): days after its deadline, the local hour and
 * length in its zone, and its place. Events not listed have no date yet ("Date to be announced").
 */
type WhenWhereSeed = {
  zone: string;
  startDaysAfterDeadline: number;
  /** instead: the event started this many hours before the seed ran (on the half hour) */
  startedHoursAgo?: number;
  hour: number;
  minute?: number;
  hours?: number;
  venue?: string;
  address?: string;
  area?: string;
  attendeesOnly?: boolean;
  online?: string;
};
const NYC = "America/New_York";
const WHEN_WHERE: Record<string, WhenWhereSeed> = {
  "Handmade Pasta Workshop": {
    zone: NYC,
    startDaysAfterDeadline: 2,
    hour: 18,
    minute: 30,
    hours: 3,
    venue: "Casa Marco teaching kitchen",
    address: "88 Mulberry St, New York, NY 10013",
  },
  "Sunrise Yoga in Riverside Park": {
    zone: NYC,
    startDaysAfterDeadline: 2,
    hour: 6,
    minute: 30,
    hours: 1,
    venue: "Riverside Park, north lawn",
    address: "Riverside Dr & W 103rd St, New York, NY",
  },
  "Community Garden Build Day": {
    zone: NYC,
    startDaysAfterDeadline: 3,
    hour: 9,
    hours: 6,
    venue: "Elm Street lot",
    address: "214 Elm St, Brooklyn, NY",
    area: "Bushwick",
    attendeesOnly: true,
  },
  "Indie Film Night: Local Shorts": {
    zone: NYC,
    startDaysAfterDeadline: 4,
    hour: 19,
    minute: 30,
    hours: 2.5,
    venue: "Roxy Cinema, screen 2",
    address: "2 6th Ave, New York, NY 10013",
  },
  "Beginner Pottery Workshop": {
    zone: "America/Los_Angeles",
    startDaysAfterDeadline: 5,
    hour: 14,
    hours: 3,
    venue: "Clay Corner Studio",
    address: "88 Alvarado St, Los Angeles, CA",
    area: "Echo Park",
    attendeesOnly: true,
  },
  "Neighbourhood Beach Cleanup": {
    zone: NYC,
    startDaysAfterDeadline: 6,
    hour: 10,
    hours: 3,
    venue: "Rockaway Beach, 97th St entrance",
  },
  "Rooftop Cinema: Summer Classics": {
    zone: NYC,
    startDaysAfterDeadline: 5,
    hour: 20,
    hours: 5,
    venue: "Hotel Marlowe rooftop",
    address: "25 Edwin H Land Blvd, Cambridge, MA",
  },
  "Board Game Marathon": {
    zone: "Europe/London",
    startDaysAfterDeadline: 2,
    hour: 12,
    hours: 10,
    venue: "The Dice Tower café",
    address: "17 Camden High St, London NW1",
  },
  "Open-Air Jazz Quartet": {
    zone: NYC,
    startDaysAfterDeadline: 7,
    hour: 20,
    hours: 2,
    venue: "Bryant Park stage",
  },
  "Coding Dojo for Kids": {
    zone: NYC,
    startDaysAfterDeadline: 3,
    hour: 10,
    hours: 2,
    online: "https://meet.example.org/coding-dojo",
  },
  "Salsa Night with Live Band": {
    zone: NYC,
    startDaysAfterDeadline: 5,
    hour: 21,
    hours: 4,
    venue: "La Terraza",
    address: "501 W 50th St, New York, NY",
    area: "Hell's Kitchen",
    attendeesOnly: true,
  },
  "Riverside Salsa Social": {
    zone: NYC,
    startDaysAfterDeadline: 0,
    startedHoursAgo: 2,
    hour: 0,
    hours: 4,
    venue: "Pier 84 river terrace",
    address: "W 44th St & 12th Ave, New York, NY",
  },
  "Repair Café: Fix Your Gadgets": {
    zone: "Asia/Tokyo",
    startDaysAfterDeadline: 2,
    hour: 13,
    hours: 4,
    venue: "Kōenji community hall",
  },
};

/**
 * Demo covers (issue 17): an abstract picture drawn from an SVG (two colours and some shapes) and
 * stored the way an upload is, so the demo shows uploaded covers beside generated ones.
 */
const COVERS: Record<string, [string, string]> = {
  "Sunrise Yoga in Riverside Park": ["#fde68a", "#f97316"],
  "Indie Film Night: Local Shorts": ["#1e1b4b", "#7c3aed"],
  "Neighbourhood Beach Cleanup": ["#bae6fd", "#0ea5e9"],
  "Open-Air Jazz Quartet": ["#0f172a", "#f59e0b"],
};

type Backer = { id: string; name: string | null };
type SeededCampaign = { id: string; ticketPriceCents: number };

const MINUTE = 60_000;
/** The demo's test cards (README "Demo payments"): one that charges, one that saves but whose charge fails. */
const CARD_OK = "4242 4242 4242 4242";
const CARD_CHARGE_FAILS = "4000 0000 0000 0341";

/**
 * Saves a card for a backer as the card form does in demo mode — a setup secret signed for them,
 * confirmed by the demo gateway — and reads it back as the commit does.
 */
async function saveDemoCard(userId: string, cardNumber: string) {
  const saved = await confirmDemoSetup(userId, {
    clientSecret: createDemoSetupSecret(userId),
    cardNumber,
    expMonth: "12",
    expYear: String(new Date().getUTCFullYear() + 4),
    cvc: "123",
  });
  if (!saved.ok) throw new Error(`The demo card was not saved: ${saved.error.message}`);
  return demoGateway().getCard({ id: userId }, saved.setupIntent.payment_method);
}

type NewPledge = {
  backer: Backer;
  createdAt: Date;
  cardNumber?: string;
  waitlistedAt?: Date;
  minPeople?: number;
};

/**
 * Commitments as a commit writes them, in commit order, each with a card of its own on a paid event
 * (the caller keeps the event's counters). The cards are saved side by side; the commitments are
 * written in one statement, in order, so the database numbers them as they came (it also makes a
 * firm commitment a member).
 */
async function addPledges(campaign: SeededCampaign, pledges: NewPledge[]): Promise<void> {
  if (pledges.length === 0) return;
  const paid = campaign.ticketPriceCents > 0;
  const cards = await Promise.all(
    pledges.map((p) => (paid ? saveDemoCard(p.backer.id, p.cardNumber ?? CARD_OK) : null)),
  );
  await db.pledge.createMany({
    data: pledges.map((p, i) => ({
      campaignId: campaign.id,
      userId: p.backer.id,
      amount: 1,
      amountCents: campaign.ticketPriceCents,
      contributor: p.backer.name ?? "Anonymous Backer",
      createdAt: p.createdAt,
      paymentMethodId: cards[i]?.paymentMethodId ?? null,
      cardBrand: cards[i]?.brand ?? null,
      cardLast4: cards[i]?.last4 ?? null,
      waitlistedAt: p.waitlistedAt ?? null,
      minPeople: p.minPeople ?? null,
    })),
  });
}

/**
 * `count` more commitments to a seeded event, each from a backer not on it yet (in seed order) with a
 * demo card of its own: the waitlist and the conditional commitments (issues 20, 21). Returns how many.
 */
async function extraPledges(
  campaign: SeededCampaign,
  backers: Backer[],
  count: number,
  extra: (i: number) => Omit<NewPledge, "backer">,
): Promise<number> {
  const taken = new Set(
    (await db.pledge.findMany({ where: { campaignId: campaign.id }, select: { userId: true } })).map(
      (p) => p.userId,
    ),
  );
  const line = backers.filter((b) => !taken.has(b.id)).slice(0, count);
  await addPledges(
    campaign,
    line.map((backer, i) => ({ backer, ...extra(i) })),
  );
  return line.length;
}

/** Issue 37: the first backer not yet committed commits for `seats` people, through the app's own commit. */
async function commitAsGroup(campaignId: string, backers: Backer[], seats: number) {
  const taken = new Set(
    (await db.pledge.findMany({ where: { campaignId }, select: { userId: true } })).map((p) => p.userId),
  );
  const holder = backers.find((b) => !taken.has(b.id));
  if (!holder) return;
  const user = await db.user.findUniqueOrThrow({ where: { id: holder.id }, select: { email: true } });
  await commitToCampaign(
    { id: holder.id, email: user.email, name: holder.name, isAdmin: false },
    { campaignId, seats },
  );
}

/**
 * Issue 37, a paid group with a named friend: the holder commits for `seats` people with a card saved
 * as the card sheet saves it; they name the friend for Guest 1 ("Invite your guests"), and the friend
 * claims the seat with the link of the email the app queued (the outbox is emptied at the end).
 */
async function commitAsPaidGroup(campaignId: string, holder: Backer, friend: Backer, seats: number) {
  const viewer = async (b: Backer) => ({
    id: b.id,
    email: (await db.user.findUniqueOrThrow({ where: { id: b.id }, select: { email: true } })).email,
    name: b.name,
    isAdmin: false,
  });
  const [asHolder, asFriend] = [await viewer(holder), await viewer(friend)];
  const card = await saveDemoCard(holder.id, CARD_OK);
  await commitToCampaign(asHolder, {
    campaignId,
    seats,
    paymentMethodId: card.paymentMethodId,
    saveCard: true,
  });
  await inviteFriend(asHolder, { campaignId, guestSlot: 1, email: asFriend.email });
  const invite = await db.emailOutbox.findFirstOrThrow({
    where: { toEmail: asFriend.email, subject: { startsWith: "A seat for you" } },
    orderBy: { createdAt: "desc" },
    select: { text: true },
  });
  const token = /\/claim\/([A-Za-z0-9_-]+)/.exec(invite.text)?.[1];
  if (!token) throw new Error("The demo seat invitation has no claim link.");
  await claimSeat(asFriend, { token });
}

/** The rows the app writes for one event, by table, with their every timestamp column. */
const EVENT_ROWS: [table: string, where: string][] = [
  ["Campaign", `"id" = $1`],
  ["Pledge", `"campaignId" = $1`],
  ["Payout", `"campaignId" = $1`],
  ["DemoPaymentIntent", `"metadata"->>'campaignId' = $1`],
];
const timestampColumns = new Map<string, Promise<string[]>>();
function columnsOf(table: string): Promise<string[]> {
  let columns = timestampColumns.get(table);
  if (!columns) {
    columns = db.$queryRaw<{ name: string }[]>`
      SELECT column_name AS "name" FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ${table} AND data_type LIKE 'timestamp%'`.then(
      (rows) => rows.map((r) => r.name),
    );
    timestampColumns.set(table, columns);
  }
  return columns;
}

/** Moves every time of one event's rows by `ms` (all by the same amount: their order is kept). */
async function shiftEvent(campaignId: string, ms: number): Promise<void> {
  if (ms === 0) return;
  for (const [table, where] of EVENT_ROWS) {
    const set = (await columnsOf(table))
      .map((c) => `"${c}" = "${c}" + $2::float8 * interval '1 millisecond'`)
      .join(", ");
    await db.$executeRawUnsafe(`UPDATE "${table}" SET ${set} WHERE ${where}`, campaignId, ms);
  }
}

/**
 * An event's past, played at today's clock (issue 31). The app's functions stamp what they write with
 * the database's clock, so to play a moment of the event's past, the event's rows are first moved
 * forward until that moment is now; once the story reaches the present they are moved back. Every
 * time of the event moves by the same amount, so what the app wrote keeps its order and its gaps.
 */
class EventClock {
  /** how far the event's rows are ahead of their own time (ms) */
  private offset = 0;
  constructor(private readonly campaignId: string) {}

  /** Makes `t` (a time of the demo's story) the present for this event; returns the present. */
  async at(t: number): Promise<Date> {
    const present = Date.now();
    await shiftEvent(this.campaignId, present - t - this.offset);
    this.offset = present - t;
    return new Date(present);
  }

  /** Back to the event's own time. */
  async settle(): Promise<void> {
    await shiftEvent(this.campaignId, -this.offset);
    this.offset = 0;
  }
}

/**
 * What the charge job (queued by a tip or a late commit: `charge`) and the payout sweeper do for one
 * event now.
 */
async function chargeAndSweep(campaign: SeededCampaign, present: Date, charge: boolean): Promise<void> {
  if (campaign.ticketPriceCents <= 0) return;
  const gateway = demoGateway();
  if (charge) await runCharging(campaign.id, { gateway });
  if ((await listDuePayouts(present, 500)).includes(campaign.id))
    await runPayout(campaign.id, { now: present, gateway });
}

/**
 * A tipped event from its tip to the present, through the app's own functions: the tip (as the
 * commit that reached the goal makes it, from the counted commitments), the charging run it queues,
 * each later commitment counted and charged on arrival, and the minute jobs — the recovery pass
 * (retries, reminders, dropping a window that closed unpaid) and the payout sweeper — looked at once
 * a day until the present.
 */
async function playFromTip(
  campaign: SeededCampaign,
  tipAt: number,
  late: { backer: Backer; at: number; cardNumber: string }[],
  now: number,
): Promise<void> {
  const clock = new EventClock(campaign.id);
  const tipped = await clock.at(tipAt);
  const status = await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Campaign" WHERE "id" = ${campaign.id} FOR UPDATE`;
    return tipIfReached(tx, campaign.id, tipped);
  });
  if (!status) throw new Error(`The demo event ${campaign.id} did not tip.`);
  await chargeAndSweep(campaign, tipped, true);

  const steps: { at: number; charge: boolean; run: (present: Date) => Promise<unknown> }[] = late.map(
    (l) => ({
      at: l.at,
      charge: true,
      run: async (present) => {
        await addPledges(campaign, [{ backer: l.backer, createdAt: present, cardNumber: l.cardNumber }]);
        await db.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT "id" FROM "Campaign" WHERE "id" = ${campaign.id} FOR UPDATE`;
          await tx.campaign.update({
            where: { id: campaign.id },
            data: {
              committedCount: { increment: 1 },
              pledgeCount: { increment: 1 },
              currentAmount: { increment: 1 },
            },
            select: { id: true },
          });
          const { id } = await tx.pledge.findFirstOrThrow({
            where: { campaignId: campaign.id, userId: l.backer.id, withdrawnAt: null },
            select: { id: true },
          });
          await confirmJoinedIfFree(tx, campaign.id, [id], present);
        });
      },
    }),
  );
  // The recovery pass looks at every event; the others are at their own time (events are played one
  // at a time), which is the present it is given, so it finds them as its next real run would.
  if (campaign.ticketPriceCents > 0)
    for (let at = tipAt + DAY + 5 * MINUTE; at < now; at += DAY)
      steps.push({
        at,
        charge: false,
        run: (present) => runPaymentRecovery({ now: present, gateway: demoGateway() }),
      });
  steps.sort((a, b) => a.at - b.at);
  for (const step of steps) {
    const present = await clock.at(step.at);
    await step.run(present);
    await chargeAndSweep(campaign, present, step.charge);
  }
  await clock.settle();
}

/**
 * Issue 36: these backers came to the event: their tickets are checked in at the door by the
 * organizer, and their show-up deposits refunded once, by a partial refund of their payment (as the
 * check-in page does: lib/tickets/check-in, lib/ledger/deposits).
 */
async function checkInAtTheDoor(campaignId: string, organizerId: string, came: Backer[]): Promise<void> {
  await issueTickets(db, campaignId);
  for (const backer of came) {
    const ticket = await db.ticket.findFirstOrThrow({
      where: { campaignId, pledge: { userId: backer.id } },
      select: { id: true, pledgeId: true },
    });
    await db.checkIn.create({ data: { ticketId: ticket.id, campaignId, byUserId: organizerId } });
    if ((await refundOwedDeposits({ pledgeId: ticket.pledgeId, gateway: demoGateway() })) !== 1)
      throw new Error(`The demo deposit of ${backer.name} was not refunded.`);
  }
}

async function demoCover(title: string): Promise<Buffer | null> {
  const colours = COVERS[title];
  if (!colours) return null;
  const [a, b] = colours;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
    <rect width="1600" height="900" fill="url(#g)"/>
    <circle cx="1250" cy="260" r="190" fill="#ffffff" fill-opacity="0.22"/>
    <circle cx="300" cy="720" r="320" fill="#ffffff" fill-opacity="0.12"/>
    <rect x="640" y="420" width="520" height="36" rx="18" fill="#ffffff" fill-opacity="0.25"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** The seed's start and end for an event whose deadline is `deadline`, in its zone. */
function whenWhere(title: string, deadline: Date) {
  const w = WHEN_WHERE[title];
  if (!w) return {};
  const day = toWallClock(deadline.getTime() + w.startDaysAfterDeadline * DAY, w.zone).slice(0, 10);
  const wall = `${day}T${String(w.hour).padStart(2, "0")}:${String(w.minute ?? 0).padStart(2, "0")}`;
  const start =
    w.startedHoursAgo === undefined
      ? fromWallClock(wall, w.zone)
      : ({
          ok: true,
          date: new Date(Math.floor((Date.now() - w.startedHoursAgo * HOUR) / (30 * MINUTE)) * 30 * MINUTE),
        } as const);
  if (!start.ok) return {};
  return {
    startsAt: start.date,
    endsAt: new Date(start.date.getTime() + (w.hours ?? 2) * HOUR),
    timeZone: w.zone,
    venue: w.venue ?? null,
    address: w.address ?? null,
    area: w.area ?? null,
    addressPrivate: Boolean(w.attendeesOnly && w.address),
    onlineUrl: w.online ?? null,
  };
}

const BACKER_NAMES = [
  "Alice Park",
  "Ben Okafor",
  "Chloe Martin",
  "Diego Alvarez",
  "Emma Schultz",
  "Farah Haddad",
  "George Lin",
  "Hana Sato",
  "Ivan Petrov",
  "Julia Rossi",
];

/**
 * Seeds the demo data into an empty database; returns false (and changes nothing) when it already
 * has users. Runs with JOBS_ENABLED=false: it does the jobs' work itself, and nothing may be queued
 * for workers that are not running.
 */
export async function seedDemo(): Promise<boolean> {
  if (env().JOBS_ENABLED) throw new Error("The demo seed runs with JOBS_ENABLED=false.");
  if ((await db.user.count()) > 0) {
    console.log("The database already has users: demo data not seeded.");
    return false;
  }
  // The demo data's money is the demo gateway's (pi_demo_…, pm_demo_…): with Stripe configured, a
  // refund or a charge of it would be sent to Stripe, which knows none of it. No demo data then.
  if (stripeEnabled()) {
    console.log("Stripe is configured: demo data (made with demo payments) not seeded.");
    return false;
  }
  const gateway = demoGateway();
  // the covers are drawn while the rest is written (each event waits for its own)
  const covers = new Map(
    EVENTS.map((e) => {
      const drawn = demoCover(e.title).then((source) => source && processCover(source));
      drawn.catch(() => {}); // a failure is thrown where the event waits for it
      return [e.title, drawn] as const;
    }),
  );
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const admin = await db.user.create({
    data: {
      email: "admin@pactnexus.demo",
      name: "Ada Admin",
      passwordHash,
      isAdmin: true,
      emailVerified: new Date(),
    },
  });
  const organizer = await db.user.create({
    data: {
      email: "organizer@pactnexus.demo",
      name: "Olivia Organizer",
      passwordHash,
      emailVerified: new Date(),
    },
  });
  // The organizer can be paid (issue 23): a demo payout account, made ready as the demo onboarding does.
  const { accountId } = await gateway.createPayoutAccount(organizer);
  await db.payoutAccount.create({
    data: { userId: organizer.id, provider: gateway.mode, accountId, status: "pending" },
  });
  await applyAccountState(accountId, { status: "ready", requirements: null });
  const emails = Array.from({ length: 60 }, (_, i) =>
    BACKER_NAMES[i]
      ? `${BACKER_NAMES[i].split(" ")[0].toLowerCase()}@pactnexus.demo`
      : `backer${i + 1}@pactnexus.demo`,
  );
  await db.user.createMany({
    data: emails.map((email, i) => ({
      email,
      name: BACKER_NAMES[i] ?? null,
      passwordHash,
      emailVerified: new Date(),
    })),
  });
  const byEmail = new Map(
    (
      await db.user.findMany({
        where: { email: { in: emails } },
        select: { id: true, name: true, email: true },
      })
    ).map((u) => [u.email, { id: u.id, name: u.name }]),
  );
  const backers: Backer[] = emails.map((email) => byEmail.get(email)!);
  const now = Date.now();

  let shownWithdrawal = false;
  for (const [index, e] of EVENTS.entries()) {
    const createdAt = new Date(now - e.ageDays * DAY - index * HOUR);
    const deadline = now + e.days * DAY;
    const paid = e.priceCents > 0;
    // an event that tipped did so a day before its deadline, and never later than six hours ago
    const tipAt = e.confirmed ? Math.min(now - 6 * HOUR, deadline - DAY) : null;
    // the commitments in commit order (a failed payment's backer committed early); before a tip, the
    // commitment that reached the goal was the last, and the rest came after it
    const failing = e.failedPayment ? backers[e.failedPayment.backer] : null;
    const line = e.deposit
      ? e.deposit.backers.map((i) => backers[i])
      : [
          ...(failing ? [failing] : []),
          ...Array.from({ length: e.pledges }, (_, p) => backers[(p + index * 7) % backers.length]).filter(
            (b) => b !== failing,
          ),
        ];
    const before = tipAt === null ? line.length : Math.min(e.goal, line.length);
    const lateUntil = Math.min(deadline, now - (e.waiting ? (e.waiting + 1) * HOUR : 0));
    const commitAt = (i: number) => {
      const from = createdAt.getTime();
      if (tipAt === null) return from + ((i + 1) * (now - from)) / (line.length + 2);
      if (i < before) return from + ((i + 1) * (tipAt - from)) / before;
      return tipAt + ((i - before + 1) * (lateUntil - tipAt)) / (line.length - before + 1);
    };
    const cardFor = (b: Backer) => (b === failing ? CARD_CHARGE_FAILS : CARD_OK);

    const campaign = await db.campaign.create({
      data: {
        title: e.title,
        description: e.description,
        logisticalDetails: e.logisticalDetails ?? null,
        goal: e.goal,
        deadline: new Date(deadline),
        ...whenWhere(e.title, new Date(deadline)),
        createdAt,
        creatorId: organizer.id,
        creatorEmail: organizer.email,
        approvalStatus: e.approval ?? "approved",
        approvalUpdatedAt: createdAt,
        approvalUpdatedById: admin.id,
        ticketPriceCents: e.priceCents,
        isTest: e.isTest ?? false,
        attendeesAnonymous: e.anonymous ?? true,
        identityRevelationType: e.anonymous === false ? "immediate" : "never",
        // the tip, and everything after it, is the app's (playFromTip)
        status: e.outcome ?? "pending",
        cancelledAt: e.outcome === CANCELLED ? createdAt : null,
        lastStatusUpdate: createdAt,
        committedCount: before,
        pledgeCount: before,
        currentAmount: before,
        capacity: e.capacity ?? null,
        // more commitments than the goal and no capacity: it kept accepting after the tip
        acceptAfterThreshold: tipAt !== null && line.length > e.goal && !e.capacity,
        earlyGoAhead: e.earlyGoAhead ?? false,
        depositCents: e.deposit?.cents ?? 0,
        // issue 37: events take groups of up to 4 (the create form's default), with a show-up deposit
        // too (each seat's deposit refunded at its own check-in, lib/events/seats.ts)
        maxSeats: 4,
      },
      select: { id: true, ticketPriceCents: true },
    });
    const processed = await covers.get(e.title);
    if (processed) {
      const cover = await db.coverImage.create({
        data: { campaignId: campaign.id, uploaderId: organizer.id, ...processed },
      });
      await db.campaign.update({ where: { id: campaign.id }, data: { coverId: cover.id } });
    }
    await addPledges(
      campaign,
      line
        .slice(0, before)
        .map((backer, i) => ({ backer, createdAt: new Date(commitAt(i)), cardNumber: cardFor(backer) })),
    );
    if (tipAt !== null) {
      const late = line
        .slice(before)
        .map((backer, j) => ({ backer, at: commitAt(before + j), cardNumber: cardFor(backer) }));
      await playFromTip(campaign, tipAt, late, now);
    }
    if (e.deposit) await checkInAtTheDoor(campaign.id, organizer.id, line.slice(0, e.deposit.checkedIn));

    // Personal thresholds (issue 21): some come only if enough others do — they hold a place and
    // count once their number is reached (the event page shows the cascade).
    if (e.conditional) {
      const { minPeople } = e.conditional;
      const added = await extraPledges(campaign, backers, e.conditional.count, (i) => ({
        createdAt: new Date(now - (i + 1) * 3 * HOUR),
        minPeople,
      }));
      await db.campaign.update({
        where: { id: campaign.id },
        data: {
          hasConditions: true,
          pledgeCount: { increment: added },
          currentAmount: { increment: added },
        },
      });
    }
    // A full event's waitlist (issue 20): Alice is first in line, each with a saved card, charged
    // automatically if a place opens before the start.
    if (e.waiting) {
      const waiting = e.waiting;
      const added = await extraPledges(campaign, backers, waiting, (i) => {
        const at = new Date(now - (waiting - i) * HOUR);
        return { createdAt: at, waitlistedAt: at };
      });
      await db.campaign.update({ where: { id: campaign.id }, data: { waitlistCount: { increment: added } } });
    }
    // One backer of the first open paid event changed their mind (issue 18): a withdrawn commitment,
    // kept on the organizer's manage page and the backer's profile, counted nowhere (its card released).
    if (paid && tipAt === null && !e.outcome && e.pledges > 0 && !shownWithdrawal) {
      shownWithdrawal = true;
      const backer = backers[(e.pledges + index * 7) % backers.length];
      await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: backer.id,
          amount: 1,
          amountCents: e.priceCents,
          contributor: backer.name ?? "Anonymous Backer",
          createdAt: new Date(createdAt.getTime() + HOUR),
          cardBrand: "visa",
          cardLast4: "4242",
          withdrawnAt: new Date(now - 2 * HOUR),
        },
      });
    }
    if (e.group) await commitAsGroup(campaign.id, backers, e.group);
    if (e.paidGroup) {
      const g = e.paidGroup;
      await commitAsPaidGroup(campaign.id, backers[g.holder], backers[g.friend], g.seats);
    }
    if (e.pledges > 2) {
      const lines = [
        "Count me in — this is exactly what the neighbourhood needs.",
        "Can I bring a friend who hasn't signed up yet?",
        "Shared it with my running club, a few more should join today!",
      ];
      for (let c = 0; c < Math.min(3, e.pledges); c++) {
        await db.comment.create({
          data: {
            campaignId: campaign.id,
            authorId: backers[(c + index * 7) % backers.length].id,
            text: lines[c],
            createdAt: new Date(createdAt.getTime() + (c + 1) * HOUR),
          },
        });
      }
    }
  }

  // Emails queued while the past was played carry the dates of the replay (a payment that failed two
  // days ago, told today): the demo's mailbox starts empty, as it always has.
  await db.emailOutbox.deleteMany({});
  // The app's minute jobs once, at the present, as its first minute runs them (what they queue is
  // dated right, and kept).
  await runPaymentRecovery({ gateway });
  for (const id of await listCampaignsNeedingCharge()) await runCharging(id, { gateway });
  for (const id of await listDuePayouts(new Date(), 500)) await runPayout(id, { gateway });

  console.log(`Seeded ${EVENTS.length} events, ${backers.length + 2} users. Demo password: ${DEMO_PASSWORD}`);
  return true;
}
