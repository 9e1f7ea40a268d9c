/** Countdown maths shared by the server render and the ticking client component (SPEC §2, §9: 1 s tick). */
export const COUNTDOWN_TICK_MS = 1000;

type CountdownParts = {
  ended: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
};

export function countdownParts(
  deadline: Date | string | number,
  now: Date | number = Date.now(),
): CountdownParts {
  const ms = new Date(deadline).getTime() - new Date(now).getTime();
  if (!(ms > 0)) return { ended: true, days: 0, hours: 0, minutes: 0, seconds: 0 };
  const totalSeconds = Math.floor(ms / 1000);
  return {
    ended: false,
    days: Math.floor(totalSeconds / 86400),
    hours: Math.floor((totalSeconds % 86400) / 3600),
    minutes: Math.floor((totalSeconds % 3600) / 60),
    seconds: totalSeconds % 60,
  };
}

/** "3 days, 4 hours, 5 minutes" style text for the time until the deadline, or "Campaign ended". */
export function formatTimeLeft(deadline: Date | string | number, now: Date | number = Date.now()): string {
  const p = countdownParts(deadline, now);
  if (p.ended) return "Campaign ended";
  const unit = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;
  if (p.days > 0) return `${unit(p.days, "day")}, ${unit(p.hours, "hour")}, ${unit(p.minutes, "minute")}`;
  if (p.hours > 0) return `${unit(p.hours, "hour")}, ${unit(p.minutes, "minute")}`;
  if (p.minutes > 0) return `${unit(p.minutes, "minute")}, ${unit(p.seconds, "second")}`;
  return unit(p.seconds, "second");
}

/** The server's clock for one render (server components pass it to the countdown so hydration matches). */
export const requestTime = (): number => Date.now();
