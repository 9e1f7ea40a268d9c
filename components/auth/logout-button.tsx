"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { signOutHere } from "@/components/auth/session-client";

/**
 * Signs out (NextAuth clears the session cookie), then re-renders the current page on the server:
 * a signed-in-only page then refuses or redirects by itself; /profile shows the sign-in card.
 */
export function LogoutButton({
  className,
  children = "Logout",
}: {
  className: string;
  children?: React.ReactNode;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [refreshing, startRefresh] = useTransition();
  return (
    <button
      type="button"
      className={className}
      disabled={busy || refreshing}
      onClick={async () => {
        setBusy(true);
        try {
          await signOutHere();
          startRefresh(() => router.refresh());
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </button>
  );
}
