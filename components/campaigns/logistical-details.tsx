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
