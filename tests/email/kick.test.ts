import { afterEach, describe, expect, it, vi } from "vitest";

// The queue itself is pg-boss's; here only how often the sender is asked for.
const enqueue = vi.hoisted(() => vi.fn(async (_name: string, _data: object) => "job-id"));
vi.mock("@/lib/jobs/boss", () => ({ enqueue }));
vi.mock("@/lib/env", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/env")>();
  return { ...original, env: () => ({ ...original.env(), JOBS_ENABLED: true }) };
});

import { EMAIL_KICK_DATA, EMAIL_SEND_JOB, kickEmailSender } from "@/lib/email/service";

afterEach(() => vi.useRealTimers());

describe("kickEmailSender", () => {
  it("coalesces a burst into one job now and one trailing job queued after the last call", async () => {
    vi.useFakeTimers();
    await kickEmailSender();
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(enqueue).toHaveBeenLastCalledWith(EMAIL_SEND_JOB, EMAIL_KICK_DATA);

    // 100 more kicks inside the interval: none queued yet, each waits for the one trailing job.
    let settled = 0;
    const burst = Array.from({ length: 100 }, () => kickEmailSender().then(() => settled++));
    await vi.advanceTimersByTimeAsync(100);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(settled).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(burst);
    expect(enqueue).toHaveBeenCalledTimes(2);
    expect(settled).toBe(100);

    // A kick after a quiet interval is queued at once.
    await vi.advanceTimersByTimeAsync(300);
    await kickEmailSender();
    expect(enqueue).toHaveBeenCalledTimes(3);
  });

  it("a queue failure is a warning, never the caller's error", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    enqueue.mockRejectedValueOnce(new Error("queue down"));
    await new Promise((r) => setTimeout(r, 300));
    await expect(kickEmailSender()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
