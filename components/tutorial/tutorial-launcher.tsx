"use client";

import dynamic from "next/dynamic";
import { useCallback, useState } from "react";
import { buttonClass } from "@/components/ui/button";

// The tutorial (modal, calculator, cascade) is fetched when it is opened, not with the home page;
// hovering or focusing the button starts the download so the click opens it at once.
const loadTutorial = () => import("@/components/tutorial/tutorial-modal").then((m) => m.TutorialModal);
const TutorialModal = dynamic(loadTutorial, { ssr: false });

export function TutorialLauncher() {
  const [open, setOpen] = useState(false);
  // Stable: the modal's focus trap re-initialises when onClose changes.
  const close = useCallback(() => setOpen(false), []);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadTutorial()}
        onFocus={() => void loadTutorial()}
        className={buttonClass("ghost", "lg", "!text-white ring-1 ring-white/60 hover:bg-white/10")}
      >
        Learn How Pactions Work
      </button>
      {open && <TutorialModal onClose={close} />}
    </>
  );
}
