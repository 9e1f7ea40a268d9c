import type { Metadata, Viewport } from "next";
import { SiteHeader } from "@/components/layout/site-header";
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
        <SiteHeader />
        <main className="flex-1">{children}</main>
        <footer className="border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-600">
          PactNexus — a nexus for pacts. Solving coordination problems through assurance contracts.
        </footer>
      </body>
    </html>
  );
}
