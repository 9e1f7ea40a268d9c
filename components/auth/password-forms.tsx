"use client";

import Link from "next/link";
import { useState, type ComponentProps } from "react";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { announceSessionChange } from "@/components/auth/session-client";
import type { ActionResult } from "@/lib/actions";
import { AUTH_TEXT, CONFIRM_TEXT, PASSWORD_HINT, PASSWORD_MAX, RESET_TEXT } from "@/lib/auth/schema";

/** A password field with a show/hide toggle (issue 18). */
export function PasswordInput({ id, ...props }: ComponentProps<typeof Input> & { id: string }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <Input
        id={id}
        {...props}
        type={shown ? "text" : "password"}
        maxLength={PASSWORD_MAX}
        className="pr-20"
      />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-controls={id}
        aria-pressed={shown}
        className="absolute inset-y-0 right-0 rounded-r-lg px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      >
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> password</span>
      </button>
    </div>
  );
}

/** "Forgot password?": one email field; the answer is the same whether or not the account exists. */
export function ForgotPasswordForm({
  requestAction,
}: {
  requestAction: (input: unknown) => Promise<ActionResult<{ message: string }>>;
}) {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await requestAction({ email }).catch(() => null);
    setBusy(false);
    if (!res) return setError("Could not send the email. Please try again.");
    if (!res.ok) return setError(res.fieldErrors?.email ?? res.error);
    setSent(res.data.message);
  }
  return (
    <Card className="mx-auto w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Forgot your password?</h1>
      {sent ? (
        <p role="status" className="mt-4 text-slate-700">
          {sent}
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
          <p className="text-sm text-slate-600">We will email you a link to choose a new one.</p>
          <Field id="forgot-email" label="Email" error={error ?? undefined}>
            <Input
              id="forgot-email"
              type="email"
              autoComplete="email"
              value={email}
              invalid={Boolean(error)}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Please wait..." : "Send reset link"}
          </Button>
        </form>
      )}
      <Link
        href="/profile"
        className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
      >
        Back to sign in
      </Link>
    </Card>
  );
}

/** The form behind the emailed link: a new password, then sign in with it. */
export function ResetPasswordForm({
  token,
  resetAction,
}: {
  token: string;
  resetAction: (input: unknown) => Promise<ActionResult<{ email: string }>>;
}) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await resetAction({ token, password }).catch(() => null);
    setBusy(false);
    if (!res) return setError("Could not change the password. Please try again.");
    if (!res.ok) return setError(res.fieldErrors?.password ?? res.error);
    setDone(true);
  }
  return (
    <Card className="mx-auto w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Choose a new password</h1>
      {done ? (
        <>
          <p role="status" className="mt-4 text-slate-700">
            {RESET_TEXT.done}
          </p>
          <Link
            href="/profile"
            className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
          >
            Sign in
          </Link>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
          <Field id="reset-password" label="New password" error={error ?? undefined} hint={PASSWORD_HINT}>
            <PasswordInput
              id="reset-password"
              autoComplete="new-password"
              value={password}
              invalid={Boolean(error)}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Please wait..." : "Save new password"}
          </Button>
        </form>
      )}
    </Card>
  );
}

/**
 * The form behind the emailed confirmation link (issue 31): following the link proves who reads the
 * inbox, so the person confirming chooses the account's password here. Confirming ends every other
 * session of the account; this browser is then signed in with the new password.
 */
export function ConfirmEmailForm({
  token,
  email,
  confirmAction,
}: {
  token: string;
  email: string;
  confirmAction: (input: unknown) => Promise<ActionResult<{ email: string }>>;
}) {
  const [password, setPassword] = useState("");
  const [passwordConfirm, setPasswordConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<"signed-in" | "sign-in" | null>(null);
  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    if (password && passwordConfirm !== password)
      return setErrors({ passwordConfirm: CONFIRM_TEXT.mismatch });
    setBusy(true);
    setErrors({});
    const res = await confirmAction({ token, password, passwordConfirm }).catch(() => null);
    if (!res || !res.ok) {
      setBusy(false);
      const fields = res && !res.ok ? (res.fieldErrors ?? {}) : {};
      setErrors(
        Object.keys(fields).length
          ? fields
          : { _: res && !res.ok ? res.error : "Could not confirm the address. Please try again." },
      );
      return;
    }
    // every session of the account ended, this browser's too: sign it in again with the new password
    const again = await signIn("credentials", { email: res.data.email, password, redirect: false }).catch(
      () => null,
    );
    setBusy(false);
    setPassword("");
    setPasswordConfirm("");
    if (!again || again.error) {
      announceSessionChange("signout");
      setDone("sign-in");
    } else {
      announceSessionChange("signin");
      setDone("signed-in");
    }
    // no router.refresh(): the page would render again for a token now used up and replace this
    // answer with "not valid or has expired"; the account bar follows announceSessionChange
  }
  return (
    <Card className="mx-auto w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">Confirm your email</h1>
      {done ? (
        <>
          <p role="status" className="mt-4 text-slate-700">
            {done === "signed-in" ? CONFIRM_TEXT.signedIn : CONFIRM_TEXT.confirmedSignIn}
          </p>
          <Link
            href="/profile"
            className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:underline"
          >
            {done === "signed-in" ? "Go to your profile" : "Sign in"}
          </Link>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
          <p className="text-sm text-slate-600">
            Confirm that this address is yours and choose the password for this account. It replaces any
            password chosen when the account was created, and signs out every other device.
          </p>
          {errors._ && (
            <p role="alert" className="text-sm text-red-600">
              {errors._}
            </p>
          )}
          <Field id="confirm-email" label="Email">
            <Input id="confirm-email" type="email" autoComplete="username" value={email} readOnly />
          </Field>
          <Field id="confirm-password" label="New password" error={errors.password} hint={PASSWORD_HINT}>
            <PasswordInput
              id="confirm-password"
              autoComplete="new-password"
              value={password}
              invalid={Boolean(errors.password)}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <Field id="confirm-password-again" label="Confirm new password" error={errors.passwordConfirm}>
            <PasswordInput
              id="confirm-password-again"
              autoComplete="new-password"
              value={passwordConfirm}
              invalid={Boolean(errors.passwordConfirm)}
              onChange={(e) => setPasswordConfirm(e.target.value)}
            />
          </Field>
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Please wait..." : "Confirm my email"}
          </Button>
        </form>
      )}
    </Card>
  );
}

/**
 * Change password on the profile: every session ends on the server; this browser then signs in
 * again with the new password, which re-issues its own session.
 */
export function ChangePasswordForm({
  email,
  changeAction,
}: {
  email: string;
  changeAction: (input: unknown) => Promise<ActionResult<{ email: string }>>;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [currentPassword, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  async function onSubmit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    const res = await changeAction({ currentPassword, password }).catch(() => null);
    if (!res || !res.ok) {
      setBusy(false);
      const fields = res && !res.ok ? (res.fieldErrors ?? {}) : {};
      setErrors(Object.keys(fields).length ? fields : { _: res && !res.ok ? res.error : AUTH_TEXT.fallback });
      return;
    }
    const again = await signIn("credentials", { email, password, redirect: false }).catch(() => null);
    setBusy(false);
    setCurrent("");
    setPassword("");
    setOpen(false);
    if (!again || again.error) {
      announceSessionChange("signout");
      router.push("/profile");
      return;
    }
    announceSessionChange("signin");
    setMessage(RESET_TEXT.changed);
  }
  return (
    <section
      aria-labelledby="password-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="password-heading" className="text-lg font-bold text-slate-900">
          Password
        </h2>
        {!open && (
          <Button variant="secondary" size="sm" onClick={() => (setOpen(true), setMessage(null))}>
            Change password
          </Button>
        )}
      </div>
      {message && (
        <p role="status" className="mt-2 text-sm text-emerald-700">
          {message}
        </p>
      )}
      {open && (
        <form onSubmit={onSubmit} noValidate className="mt-3 max-w-md space-y-4">
          {errors._ && (
            <p role="alert" className="text-sm text-red-600">
              {errors._}
            </p>
          )}
          <Field id="current-password" label="Current password" error={errors.currentPassword}>
            <PasswordInput
              id="current-password"
              autoComplete="current-password"
              value={currentPassword}
              invalid={Boolean(errors.currentPassword)}
              onChange={(e) => setCurrent(e.target.value)}
            />
          </Field>
          <Field id="new-password" label="New password" error={errors.password} hint={PASSWORD_HINT}>
            <PasswordInput
              id="new-password"
              autoComplete="new-password"
              value={password}
              invalid={Boolean(errors.password)}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <p className="text-xs text-slate-500">Changing it signs you out everywhere else.</p>
          <div className="flex gap-2">
            <Button type="submit" disabled={busy}>
              {busy ? "Please wait..." : "Save new password"}
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
