"use client";

import { useEffect, useState } from "react";
import { Modal } from "@/components/ui/modal";
import { Button } from "@/components/ui/button";
import {
  CASCADE_INTERVAL_MS,
  CASCADE_VALUES,
  INFRASTRUCTURE_GOAL,
  PLEDGE,
  REFUND_BONUS_PERCENT,
  STAKE,
  THRESHOLD,
  TUTORIAL_STEPS,
  clampInput,
  dollars,
  refundBonus,
  refundTotal,
} from "@/components/tutorial/calc";

function NumberInput({
  id,
  label,
  value,
  onChange,
  range,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  range: { min: number; max: number; step: number };
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <span className="text-slate-500">$</span>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={range.min}
          max={range.max}
          step={range.step}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
        />
      </div>
      <p className="text-xs text-slate-500">
        {dollars(range.min)} to {dollars(range.max)}, in steps of {dollars(range.step)}
      </p>
    </div>
  );
}

function Cascade() {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      setIndex((i) => {
        if (i >= CASCADE_VALUES.length - 1) {
          clearInterval(timer);
          return i;
        }
        return i + 1;
      });
    }, CASCADE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="rounded-xl bg-brand-900 p-6 text-center text-white">
      <p className="text-sm uppercase tracking-widest text-brand-100">People committed</p>
      <p className="mt-2 text-5xl font-extrabold tabular-nums" data-testid="cascade-count" aria-live="polite">
        {CASCADE_VALUES[index].toLocaleString("en-US")}
      </p>
      <div className="mt-4 flex justify-center gap-1" aria-hidden>
        {CASCADE_VALUES.map((v, i) => (
          <span
            key={v}
            className={`h-1.5 w-6 rounded-full ${i <= index ? "bg-emerald-400" : "bg-white/20"}`}
          />
        ))}
      </div>
    </div>
  );
}

/** The eight-step explainer (SPEC §2). Illustrative only: play money, nothing is saved. */
export function TutorialModal({ onClose }: { onClose: () => void }) {
  const [step, setStep] = useState(0);
  const [pledgeText, setPledgeText] = useState(String(PLEDGE.fallback));
  const [stakeText, setStakeText] = useState(String(STAKE.fallback));
  const [threshold, setThreshold] = useState<number>(THRESHOLD.fallback);
  const pledge = clampInput(pledgeText, PLEDGE);
  const stake = clampInput(stakeText, STAKE);
  const last = TUTORIAL_STEPS.length - 1;

  const body = [
    <div key="welcome" className="space-y-3">
      <p>
        PactNexus is a nexus for pacts: agreements that only take effect when enough people join. This short
        tour shows the two kinds of pact with a few numbers you can play with.
      </p>
      <p className="text-sm text-slate-600">
        Everything here is illustrative and uses play money. Nothing is saved or charged.
      </p>
    </div>,
    <div key="what" className="space-y-3">
      <p>
        A <strong>pact</strong> is a conditional promise: &ldquo;I&rsquo;ll do it if enough others do
        too.&rdquo; Nobody is exposed until the threshold is met, so joining early is safe.
      </p>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-700">
        <li>
          <strong>Pactfunding</strong>: an assurance contract for money, with a refund bonus if the goal
          fails.
        </li>
        <li>
          <strong>Paction</strong>: coordinated action with personal thresholds and stakes.
        </li>
      </ul>
    </div>,
    <div key="fund" className="space-y-4">
      <p>
        Imagine a city pactfunding new infrastructure with a goal of{" "}
        <strong>{dollars(INFRASTRUCTURE_GOAL)}</strong>. You pledge an amount; it is only collected if the
        whole goal is reached.
      </p>
      <NumberInput
        id="tutorial-pledge"
        label="Your pledge"
        value={pledgeText}
        onChange={setPledgeText}
        range={PLEDGE}
      />
      <p className="text-sm text-slate-700">
        Your {dollars(pledge)} is {((pledge / INFRASTRUCTURE_GOAL) * 100).toFixed(4)}% of the goal.
      </p>
    </div>,
    <div key="bonus" className="space-y-3">
      <p>
        If the goal is <em>not</em> met, you don&rsquo;t just get your money back: you get{" "}
        <strong>110%</strong>. The organizer pays a {REFUND_BONUS_PERCENT}% refund bonus ($100 per $1,000,
        rounded down) for the risk of failing.
      </p>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div className="rounded-lg bg-slate-100 p-3">
          <dt className="text-xs text-slate-500">Pledged</dt>
          <dd className="font-bold">{dollars(pledge)}</dd>
        </div>
        <div className="rounded-lg bg-emerald-50 p-3">
          <dt className="text-xs text-slate-500">Bonus</dt>
          <dd className="font-bold text-emerald-700">{dollars(refundBonus(pledge))}</dd>
        </div>
        <div className="rounded-lg bg-brand-50 p-3">
          <dt className="text-xs text-slate-500">Back if it fails</dt>
          <dd className="font-bold text-brand-700">{dollars(refundTotal(pledge))}</dd>
        </div>
      </dl>
      <p className="text-sm text-slate-600">
        Either the project happens, or you come out ahead. Pledging is the winning move.
      </p>
    </div>,
    <div key="coordinate" className="space-y-4">
      <p>
        Now a paction: people agree to move together (switch apps, join a union, show up) only once enough
        others commit.
      </p>
      <div className="space-y-1">
        <label htmlFor="tutorial-threshold" className="block text-sm font-semibold text-slate-800">
          Your personal threshold: {threshold.toLocaleString("en-US")} people
        </label>
        <input
          id="tutorial-threshold"
          type="range"
          min={THRESHOLD.min}
          max={THRESHOLD.max}
          step={THRESHOLD.step}
          value={threshold}
          onChange={(e) => setThreshold(clampInput(e.target.value, THRESHOLD))}
          className="w-full accent-brand-600"
        />
        <div className="flex justify-between text-xs text-slate-500">
          <span>{THRESHOLD.min}</span>
          <span>{THRESHOLD.max.toLocaleString("en-US")}</span>
        </div>
      </div>
      <p className="text-sm text-slate-700">
        You act only when at least {threshold.toLocaleString("en-US")} people have committed.
      </p>
    </div>,
    <div key="stake" className="space-y-4">
      <p>
        To show you mean it, you put up a stake. It is forfeited only if the threshold is met and you
        don&rsquo;t follow through.
      </p>
      <NumberInput
        id="tutorial-stake"
        label="Your stake"
        value={stakeText}
        onChange={setStakeText}
        range={STAKE}
      />
      <p className="text-sm text-slate-700">
        Stake {dollars(stake)}: kept safe if fewer than {threshold.toLocaleString("en-US")} join, lost only if
        you back out after they do.
      </p>
    </div>,
    <div key="cascade" className="space-y-4">
      <p>Every commitment makes the next one easier. Watch a pact cascade as thresholds are crossed:</p>
      <Cascade />
    </div>,
    <div key="summary" className="space-y-3">
      <p>Your complete pact, in play money:</p>
      <ul className="space-y-2 text-sm">
        <li className="flex justify-between rounded-lg bg-slate-100 px-3 py-2">
          <span>Pledge toward {dollars(INFRASTRUCTURE_GOAL)}</span>
          <strong>{dollars(pledge)}</strong>
        </li>
        <li className="flex justify-between rounded-lg bg-slate-100 px-3 py-2">
          <span>Back if the goal fails (110%)</span>
          <strong>{dollars(refundTotal(pledge))}</strong>
        </li>
        <li className="flex justify-between rounded-lg bg-slate-100 px-3 py-2">
          <span>Your threshold</span>
          <strong>{threshold.toLocaleString("en-US")} people</strong>
        </li>
        <li className="flex justify-between rounded-lg bg-slate-100 px-3 py-2">
          <span>Your stake</span>
          <strong>{dollars(stake)}</strong>
        </li>
      </ul>
      <p className="text-sm text-slate-600">
        Ready? Create an event and let the threshold do the convincing.
      </p>
    </div>,
  ];

  return (
    <Modal title={TUTORIAL_STEPS[step]} onClose={onClose} size="lg">
      <p className="-mt-2 mb-4 inline-block rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800">
        Illustrative only · play money
      </p>
      <div
        role="progressbar"
        aria-label="Tutorial progress"
        aria-valuemin={1}
        aria-valuemax={TUTORIAL_STEPS.length}
        aria-valuenow={step + 1}
        aria-valuetext={`Step ${step + 1} of ${TUTORIAL_STEPS.length}`}
        className="mb-5 h-1.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full bg-brand-600 transition-all"
          style={{ width: `${((step + 1) / TUTORIAL_STEPS.length) * 100}%` }}
        />
      </div>
      <div className="min-h-56 text-slate-800">{body[step]}</div>
      <div className="mt-6 flex items-center justify-between gap-3">
        <Button variant="secondary" onClick={() => setStep((s) => Math.max(0, s - 1))} disabled={step === 0}>
          Back
        </Button>
        <div className="flex gap-1.5" aria-label={`Step ${step + 1} of ${TUTORIAL_STEPS.length}`} role="img">
          {TUTORIAL_STEPS.map((name, i) => (
            <span
              key={name}
              className={`h-2 w-2 rounded-full ${i === step ? "bg-brand-600" : i < step ? "bg-brand-300 bg-brand-500/50" : "bg-slate-300"}`}
            />
          ))}
        </div>
        {step < last ? (
          <Button onClick={() => setStep((s) => Math.min(last, s + 1))}>Next</Button>
        ) : (
          <Button variant="success" onClick={onClose}>
            Complete
          </Button>
        )}
      </div>
    </Modal>
  );
}
