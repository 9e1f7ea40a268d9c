"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useCallback, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";
import { DELETE_TEST_ERROR, NO_TEST_EVENTS, deletedTestEvents } from "@/lib/campaigns/texts";

/** `titles`: the newest test events' titles (at most TEST_TITLES_SHOWN), named in the confirmation. */
export function DeleteTestEvents({ count, titles }: { count: number; titles: string[] }) {
  const { deleteTestEventsAction } = useServerActions();
  const router = useRouter();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ tone: "ok" | "error" | "info"; text: string } | null>(null);
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
        else if (result.data.deleted === 0) setMessage({ tone: "info", text: NO_TEST_EVENTS });
        else {
          setMessage({ tone: "ok", text: deletedTestEvents(result.data.deleted) });
          router.refresh();
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
  };
  return (
    <div className="space-y-3">
      <Button variant="danger" onClick={start} disabled={busy}>
        Delete All
      </Button>
      {message && (
        <p
          role={message.tone === "error" ? "alert" : "status"}
          className={`rounded-lg px-3 py-2 text-sm ${tone[message.tone]}`}
        >
          {message.text}
        </p>
      )}
      {confirming && (
        <Modal title="Delete all test events?" onClose={close} size="sm" dismissible={!busy}>
          <p className="text-slate-700">
            This permanently deletes {count === 1 ? "the 1 test event" : `all ${count} test events`} together
            with their commitments and comments. This cannot be undone.
          </p>
          <ul className="mt-3 max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-slate-700">
            {titles.map((t, i) => (
              <li key={i} className="wrap-anywhere">
                {t}
              </li>
            ))}
          </ul>
          {count > titles.length && (
            <p className="mt-1 text-sm text-slate-500">and {count - titles.length} more.</p>
          )}
          <div className="mt-6 flex justify-end gap-3">
            <Button variant="secondary" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirm} disabled={busy}>
              {busy ? "Deleting..." : "Yes, delete them"}
            </Button>
          </div>
        </Modal>
      )}
    </div>
  );
}
