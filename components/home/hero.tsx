import { ButtonLink } from "@/components/ui/button";
import { TutorialLauncher } from "@/components/tutorial/tutorial-launcher";

export function Hero({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
        <span className="inline-flex items-center rounded-full bg-white/15 px-3 py-1 text-xs font-bold uppercase tracking-widest ring-1 ring-white/30">
          Beta
        </span>
        <h1 className="mt-4 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl">
          PactNexus — a nexus for pacts
        </h1>
        <p className="mt-4 max-w-2xl text-lg text-brand-100">
          Events that only happen when enough people commit. Set a threshold and a deadline; everyone is
          charged only if the threshold is met. Otherwise, nobody pays.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <ButtonLink
            href="/create-campaign"
            size="lg"
            variant="secondary"
            className="border-transparent !text-brand-700"
          >
            Create New Event
          </ButtonLink>
          <TutorialLauncher />
          {!signedIn && (
            <ButtonLink
              href="/profile"
              size="lg"
              variant="ghost"
              className="!text-white ring-1 ring-white/40 hover:bg-white/10"
            >
              Sign In
            </ButtonLink>
          )}
        </div>
      </div>
    </section>
  );
}
