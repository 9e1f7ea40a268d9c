"use server";

import { redirect } from "next/navigation";
import { unsubscribe } from "@/lib/email/unsubscribe";

export async function unsubscribeAction(formData: FormData): Promise<void> {
  const token = formData instanceof FormData ? formData.get("token") : null;
  const ok = await unsubscribe(token);
  redirect(ok ? "/unsubscribe?done=1" : "/unsubscribe?invalid=1");
}
