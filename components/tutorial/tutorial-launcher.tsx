"use client";

import { useCallback, useState } from "react";
import { buttonClass } from "@/components/ui/button";
import { TutorialModal } from "@/components/tutorial/tutorial-modal";

export function TutorialLauncher() {
  const [open, setOpen] = useState(false);
  // Stable: the modal's focus trap re-initialises when onClose changes.
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className={buttonClass("ghost", "lg", "!text-white ring-1 ring-white/60 hover:bg-white/10")}>
        Learn How Pactions Work
      </button>
      {open && <TutorialModal onClose={close} />}
    </>
  );
}
