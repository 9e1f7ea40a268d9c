"use client";

import type { ComponentProps, ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";

/**
 * A small dialog that asks before something that can't be taken back (go ahead, withdraw, give up a
 * place): what happens, the error of a try that failed, and two buttons — keep things as they are,
 * or do it (its label changes while it runs; nothing closes it then).
 */
export function ConfirmDialog({
  title,
  children,
  error,
  busy,
  cancelLabel,
  confirmLabel,
  busyLabel,
  tone = "danger",
  onCancel,
  onConfirm,
}: {
  title: string;
  children: ReactNode;
  error: string | null;
  busy: boolean;
  cancelLabel: string;
  confirmLabel: string;
  busyLabel: string;
  tone?: ComponentProps<typeof Button>["variant"];
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal title={title} onClose={onCancel} dismissible={!busy} size="sm">
      <div className="space-y-4 text-slate-700">
        {children}
        {error && (
          <p role="alert" className="text-sm text-red-600">
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={tone} onClick={onConfirm} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
