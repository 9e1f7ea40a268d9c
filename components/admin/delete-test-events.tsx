"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useCallback, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import {
  DELETE_TEST_ERROR,
  KEPT_REASON,
  KEPT_REMEDY,
  NO_TEST_EVENTS,
  deletedTestEvents,
  keptTestEvents,
} from "@/lib/campaigns/texts";

/**
 * `count` test events; `titles`: the newest of those it deletes, `kept`: the newest of the `keptCount`
 * it keeps because money is on them (issue 31), each at most TEST_TITLES_SHOWN, named in the
 * confirmation. The answer names the events the server kept, whatever the page showed.
 */
export function DeleteTestEvents({
  count,
  titles,
  kept,
  keptCount,
}: {
  count: number;
  titles: string[];
  kept: string[];
  keptCount: number;
}) {
  const { deleteTestEventsAction } = useServerActions();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error" | "info" | "warn"; text: string } | null>(
    null,
  );
  const [busy, startTransition] = useTransition();
  const close = useCallback(() => setConfirming(false), []);

  const start = () => {
    setMessage(null);
    if (count === 0) {
      setMessage({ tone: "info", text: NO_TEST_EVENTS });
      return;
    }
    setConfirming(true);
  };

  const confirm = () => {
    startTransition(async () => {
      try {
        const result = await deleteTestEventsAction();
        setConfirming(false);
        if (!result.ok) setMessage({ tone: "error", text: result.error || DELETE_TEST_ERROR });
        else {
          const { deleted, kept: keptNow, keptCount: keptNowCount } = result.data;
          const keptText = keptTestEvents(keptNow, keptNowCount);
          const text = [deleted > 0 ? deletedTestEvents(deleted) : keptText ? "" : NO_TEST_EVENTS, keptText]
            .filter(Boolean)
            .join(" ");
          setMessage({ tone: keptText ? "warn" : deleted > 0 ? "ok" : "info", text });
          if (deleted > 0 || keptText) router.refresh();
        }
      } catch {
        setConfirming(false);
        setMessage({ tone: "error", text: DELETE_TEST_ERROR });
      }
    });
  };

  const tone = {
    ok: "bg-emerald-50 text-emerald-800",
    error: "bg-red-50 text-red-700",
    info: "bg-slate-100 text-slate-700",
    warn: "bg-amber-50 text-amber-900",
  };
  const deletable = Math.max(0, count - keptCount);
  return (
    <div className="space-y-3">
      <Button variant="danger" onClick={start} disabled={busy}>
        Delete All
      </Button>
      {message && (
        <p
          role={message.tone === "error" || message.tone === "warn" ? "alert" : "status"}
          className={`rounded-lg px-3 py-2 text-sm ${tone[message.tone]}`}
        >
          {message.text}
        </p>
      )}
      {confirming && (
        <Modal
          title={keptCount > 0 ? "Delete test events?" : "Delete all test events?"}
          onClose={close}
          size="sm"
          dismissible={!busy}
        >
          {deletable > 0 ? (
            <>
              <p className="text-slate-700">
                This permanently deletes{" "}
                {keptCount > 0
                  ? `${deletable} of the ${count} test events`
                  : count === 1
                    ? "the 1 test event"
                    : `all ${count} test events`}{" "}
                together with their commitments and comments. This cannot be undone.
              </p>
              <TitleList titles={titles} total={deletable} />
            </>
          ) : (
            <p className="text-slate-700">None of the test events can be deleted.</p>
          )}
          {keptCount > 0 && (
            <div className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
              <p className="font-semibold">
                {keptCount === 1 ? "Kept: 1 test event" : `Kept: ${keptCount} test events`}
              </p>
              <p>{KEPT_REASON}</p>
              <TitleList titles={kept} total={keptCount} label="Test events kept" />
              <p className="mt-2">{KEPT_REMEDY}</p>
            </div>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={close} disabled={busy}>
              {deletable > 0 ? "Cancel" : "Close"}
            </Button>
            {deletable > 0 && (
              <Button variant="danger" onClick={confirm} disabled={busy}>
                {busy ? "Deleting..." : "Yes, delete them"}
              </Button>
            )}
          </div>
        </Modal>
      )}
    </div>
  );
}

function TitleList({ titles, total, label }: { titles: string[]; total: number; label?: string }) {
  return (
    <>
      <ul
        aria-label={label}
        className="mt-3 max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-slate-700"
      >
        {titles.map((t, i) => (
          <li key={i} className="wrap-anywhere">
            {t}
          </li>
        ))}
      </ul>
      {total > titles.length && (
        <p className="mt-1 text-sm text-slate-500">and {total - titles.length} more.</p>
      )}
    </>
  );
}
