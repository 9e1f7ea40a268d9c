const steps = [
  {
    n: 1,
    title: "Create an event",
    text: "Set a minimum number of attendees, a deadline and a ticket price (or make it free).",
  },
  {
    n: 2,
    title: "Gather commitments",
    text: "People commit to come. Paid events save a card, but nobody is charged yet.",
  },
  {
    n: 3,
    title: "Activation",
    text: "When enough people commit before the deadline, the event activates and everyone is charged together.",
  },
  {
    n: 4,
    title: "Guaranteed turnout",
    text: "The event only happens with the crowd it needs. If the threshold isn't met, nobody pays.",
  },
];

export function InfoSteps() {
  return (
    <section aria-labelledby="how-it-works" className="bg-white py-12">
      <div className="mx-auto max-w-6xl px-4">
        <h2 id="how-it-works" className="text-center text-2xl font-bold text-slate-900">
          How it works
        </h2>
        <ol className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map((s) => (
            <li key={s.n} className="rounded-xl border border-slate-200 bg-slate-50 p-5">
              <span className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-600 font-bold text-white">
                {s.n}
              </span>
              <h3 className="mt-3 font-semibold text-slate-900">{s.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{s.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
