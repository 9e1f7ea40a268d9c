/**
 * Live pace estimate for the event page: how many more are needed before the deadline and whether,
 * at the average rate since the event was created, it will reach its goal ("tip").
 */
type PaceInput = {
  status: string;
  goal: number;
  /** people for a paction, whole dollars for a crowdfund */
  progress: number;
  createdAt: Date;
  deadline: Date;
  crowdfund?: boolean;
  /** how many commitments the rate rests on (people, or backers of a crowdfund) */
  commitments: number;
};

/** willTip is null while it is too early to tell. */
type Pace = { needed: number; msLeft: number; projected: number; willTip: boolean | null; text: string };

/**
 * A rate needs data (issue 16): at least this many commitments over at least this long. Before, a
 * new event with 0 commitments "won't tip" and one commitment a minute after creation "will tip" a
 * goal of 10,000.
 */
export const PACE_MIN_COMMITMENTS = 3;
export const PACE_MIN_ELAPSED_MS = 12 * 60 * 60 * 1000;

export function timeLeftText(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  if (days >= 1) return unit(days, "day");
  if (hours >= 1) return unit(hours, "hour");
  return unit(minutes, "minute");
}

export function paceEstimate(p: PaceInput, now: Date = new Date()): Pace | null {
  if (p.status !== "pending") return null;
  const msLeft = p.deadline.getTime() - now.getTime();
  const needed = p.goal - p.progress;
  if (msLeft <= 0 || needed <= 0) return null;
  const elapsed = Math.max(60_000, now.getTime() - p.createdAt.getTime());
  const more = p.crowdfund ? `$${needed.toLocaleString("en-US")} more` : `${needed} more`;
  if (p.commitments < PACE_MIN_COMMITMENTS || elapsed < PACE_MIN_ELAPSED_MS) {
    const text = `Needs ${more} in ${timeLeftText(msLeft)}; too early to tell whether it will tip.`;
    return { needed, msLeft, projected: p.progress, willTip: null, text };
  }
  const projected = p.progress + (p.progress / elapsed) * msLeft;
  const willTip = projected >= p.goal;
  const text = `Needs ${more} in ${timeLeftText(msLeft)}; at the current pace it ${willTip ? "will" : "won't"} tip.`;
  return { needed, msLeft, projected: Math.floor(projected), willTip, text };
}
