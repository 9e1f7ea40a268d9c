import Link from "next/link";
import { AccountBar } from "@/components/layout/account-bar";

const navLink = "rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:text-brand-700";

/**
 * Site header (SPEC §2 header links). It reads no cookies, so pages stay cacheable; the links are
 * rendered here and placed by the client AccountBar, which shares one bar with the account
 * (folded into a menu on a phone, issue 34 item 7).
 */
export function SiteHeader() {
  return (
    <AccountBar>
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
    </AccountBar>
  );
}
