import { Card } from "@/components/ui/card";

export function LogisticalDetails({ details }: { details: string | null }) {
  if (!details) return null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Logistical details</h2>
      <p className="mt-2 whitespace-pre-line wrap-anywhere text-slate-700">{details}</p>
    </Card>
  );
}

/** The event's other optional texts with a page label (lib/campaigns/event-fields.ts), under the logistics. */
export function EventTexts({ texts }: { texts: readonly (readonly [label: string, text: string])[] }) {
  if (texts.length === 0) return null;
  return (
    <Card>
      <dl className="space-y-3">
        {texts.map(([label, text]) => (
          <div key={label}>
            <dt className="font-semibold text-slate-900">{label}</dt>
            <dd className="mt-1 whitespace-pre-line wrap-anywhere text-slate-700">{text}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
