import { ButtonLink } from "@/components/ui/button";

const stages = [
  {
    name: "Coordinated events",
    status: "Live",
    text: "Events that only happen when enough people commit. Organizers set a threshold and a deadline; attendees save a card, and everyone is charged only if the threshold is met.",
  },
  {
    name: "Better crowdfunding with a refund bonus",
    status: "Live",
    text: "Dominant assurance contracts: if a project misses its goal, backers get their money back plus a bonus paid by the organizer, so pledging is the winning move either way. Today the bonus is the organizer\u2019s own promise, shown on the event; PactNexus does not hold it.",
  },
  {
    name: "Variable thresholds",
    status: "Live",
    text: "Each person sets their own condition (\u201cI\u2019m in if 50 others are\u201d) and commitments activate in order as personal thresholds are crossed.",
  },
  {
    name: "Escrow and accountability",
    status: "Next",
    text: "Funds held in escrow until the organizer delivers, with milestones and a way for backers to confirm the promise was kept.",
  },
  {
    name: "Real-world pactions",
    status: "Exploring",
    text: "Coordinated action beyond events: switching to a better service together, forming a tenants\u2019 union, or showing up for a cause once enough people do.",
  },
  {
    name: "The spiral",
    status: "Exploring",
    text: "Small pacts that succeed seed bigger ones: each completed pact makes it easier to gather the commitments for the next, more ambitious one.",
  },
  {
    name: "The humanchain",
    status: "Exploring",
    text: "Chains of conditional commitments linking people and pacts, so progress in one community can trigger action in the next.",
  },
];

const infinite = {
  name: "Mutually assured cooperation",
  text: "The infinite stage: a world where coordination problems are solved by default, because anyone can propose a pact and everyone knows it only binds them if enough others join.",
};

export function RoadmapView() {
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <p className="text-sm font-bold uppercase tracking-widest text-brand-600">Roadmap</p>
      <h1 className="mt-2 text-3xl font-extrabold text-slate-900 sm:text-4xl">
        From events to mutually assured cooperation
      </h1>
      <p className="mt-3 text-lg text-slate-600">
        PactNexus starts with events and grows into a general tool for coordination. Seven stages, and one
        that never ends.
      </p>

      <ol className="relative mt-10 space-y-6 border-l-2 border-brand-100 pl-6 sm:pl-8">
        {stages.map((s, i) => (
          <li key={s.name} className="relative">
            <span className="absolute -left-[2.35rem] flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white ring-4 ring-slate-50 sm:-left-[2.85rem]">
              {i + 1}
            </span>
            <div className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-lg font-semibold text-slate-900">
                  Stage {i + 1}: {s.name}
                </h2>
                <span
                  className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${s.status === "Live" ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-600"}`}
                >
                  {s.status}
                </span>
              </div>
              <p className="mt-2 text-slate-600">{s.text}</p>
            </div>
          </li>
        ))}
        <li className="relative">
          <span
            className="absolute -left-[2.35rem] flex h-8 w-8 items-center justify-center rounded-full bg-gradient-to-br from-brand-700 to-purple-600 text-lg font-bold text-white ring-4 ring-slate-50 sm:-left-[2.85rem]"
            aria-hidden
          >
            ∞
          </span>
          <div className="rounded-xl bg-gradient-to-br from-brand-900 to-brand-600 p-6 text-white shadow-sm">
            <h2 className="text-lg font-semibold">Stage ∞: {infinite.name}</h2>
            <p className="mt-2 text-brand-100">{infinite.text}</p>
          </div>
        </li>
      </ol>

      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <ButtonLink href="/create-campaign">Create New Event</ButtonLink>
        <ButtonLink href="/" variant="secondary">
          Browse events
        </ButtonLink>
      </div>
    </div>
  );
}
