"use client";

import Link from "next/link";
import { rememberScroll } from "@/components/home/scroll-keeper";

/** The chips themselves (client: they remember the scroll position for the next grid). */
export function FilterLinks({
  items,
}: {
  items: { key: string; href: string; label: string; active: boolean }[];
}) {
  return (
    <>
      {items.map((f) => (
        <Link
          key={f.key}
          href={f.href}
          aria-current={f.active ? "page" : undefined}
          scroll={false}
          onClick={rememberScroll}
          className={`rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ring-inset transition-colors ${
            f.active
              ? "bg-brand-600 text-white ring-brand-600"
              : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
          }`}
        >
          {f.label}
        </Link>
      ))}
    </>
  );
}
