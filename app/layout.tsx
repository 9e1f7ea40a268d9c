import type { Metadata, Viewport } from "next";
import Link from "next/link";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "PactNexus — a nexus for pacts", template: "%s · PactNexus" },
  description: "Commit to events that only happen when enough people commit. Nobody pays unless the threshold is met.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#4f46e5" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen flex flex-col">
        <header className="border-b border-slate-200 bg-white">
          <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-5 gap-y-2 px-4 py-3">
            <Link href="/" className="mr-auto text-lg font-bold text-brand-700">
              PactNexus
            </Link>
            <Link href="/" className="text-sm font-medium text-slate-700 hover:text-brand-700">Home</Link>
            <Link href="/profile" className="text-sm font-medium text-slate-700 hover:text-brand-700">Profile</Link>
            <Link href="/create-campaign" className="text-sm font-medium text-slate-700 hover:text-brand-700">Create Campaign</Link>
            <Link href="/roadmap" className="text-sm font-medium text-slate-700 hover:text-brand-700">Roadmap</Link>
          </nav>
        </header>
        <main className="flex-1">{children}</main>
        <footer className="border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-600">
          PactNexus — a nexus for pacts. Solving coordination problems through assurance contracts.
        </footer>
      </body>
    </html>
  );
}
