import Link from "next/link";
import { AccountBar } from "@/components/layout/account-bar";

const navLink = "text-sm font-medium text-slate-700 hover:text-brand-700";

/**
 * Site header (SPEC §2 header links). It reads no cookies, so pages stay cacheable; the signed-in
 * account bar renders on the client (AccountBar).
 */
export function SiteHeader() {
  return (
    <>
      {/* outside <header>: a sticky element sticks only within its parent, and the strip stays for the whole page */}
      <AccountBar />
      <header className="border-b border-slate-200 bg-white">
        <nav
          aria-label="Main"
          className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-5 gap-y-1 px-4 py-3 sm:justify-start"
        >
          <Link href="/" className="basis-full text-lg font-bold text-brand-700 sm:mr-auto sm:basis-auto">
            PactNexus
          </Link>
          <Link href="/" className={navLink}>
            Home
          </Link>
          <Link href="/profile" className={navLink}>
            Profile
          </Link>
          <Link href="/create-campaign" className={navLink}>
            Create Campaign
          </Link>
          <Link href="/roadmap" className={navLink}>
            Roadmap
          </Link>
        </nav>
      </header>
    </>
  );
}
