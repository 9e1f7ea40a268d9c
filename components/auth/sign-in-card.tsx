"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { announceSessionChange } from "@/components/auth/session-client";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import type { ActionResult } from "@/lib/actions";
import Link from "next/link";
import { PasswordInput } from "@/components/auth/password-forms";
import {
  AUTH_TEXT,
  fieldErrorsOf,
  NAME_MAX,
  PASSWORD_HINT,
  signInSchema,
  signUpSchema,
} from "@/lib/auth/schema";

type Mode = "signIn" | "signUp";

/** NextAuth answers "CredentialsSignin" when authorize returns nothing; ours always throws a message. */
const messageOf = (error: string) => (error === "CredentialsSignin" ? AUTH_TEXT.fallback : error);

/**
 * SPEC §2 "Sign In card": Continue with Google (only when Google is configured), an email/password
 * form that toggles between Sign In and Sign Up, "Please wait..." while busy. Validation uses the
 * same zod schemas as the server (lib/auth/schema.ts).
 */
export function SignInCard({
  googleEnabled,
  initialError,
  signUpAction,
  returnTo = null,
}: {
  googleEnabled: boolean;
  /** a same-origin path to go on to after signing in (lib/auth/return-path); the dashboard when null */
  returnTo?: string | null;
  initialError?: string;
  /** the server action that creates the account (app/profile/actions.ts) */
  signUpAction: (input: unknown) => Promise<ActionResult<{ email: string }>>;
}) {
  const router = useRouter();
  const [mode, setMode] = useState<Mode>("signIn");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | undefined>(initialError);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [submitting, setSubmitting] = useState(false);
  const [refreshing, startRefresh] = useTransition();
  const busy = submitting || refreshing;
  const signingUp = mode === "signUp";

  function switchMode() {
    setMode(signingUp ? "signIn" : "signUp");
    setError(undefined);
    setFieldErrors({});
  }

  function clearFieldError(field: string) {
    if (fieldErrors[field]) setFieldErrors(({ [field]: _, ...rest }) => rest);
  }

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    setError(undefined);
    const parsed = signingUp
      ? signUpSchema.safeParse({ email, password, name })
      : signInSchema.safeParse({ email, password });
    if (!parsed.success) {
      setFieldErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setFieldErrors({});
    setSubmitting(true);
    try {
      if (signingUp) {
        const created = await signUpAction({ email, password, name });
        if (!created.ok) {
          if (created.fieldErrors && Object.keys(created.fieldErrors).length)
            setFieldErrors(created.fieldErrors);
          else setError(created.error);
          return;
        }
      }
      const result = await signIn("credentials", { email, password, redirect: false });
      if (!result || result.error) {
        setError(messageOf(result?.error ?? ""));
        return;
      }
      announceSessionChange("signin"); // the account bar reads the new session
      // back to where they were going (issue 18), else the server renders the dashboard
      if (returnTo) startRefresh(() => router.push(returnTo));
      else startRefresh(() => router.refresh());
    } catch {
      setError(AUTH_TEXT.fallback);
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Card className="mx-auto w-full max-w-md p-6 sm:p-8">
      <h1 className="text-2xl font-bold text-slate-900">{signingUp ? "Sign Up" : "Sign In"}</h1>
      <p className="mt-1 text-sm text-slate-600">
        {signingUp
          ? "Create an account to start and join pacts."
          : "Sign in to commit to events and manage your pacts."}
      </p>

      {error && (
        <p
          role="alert"
          className="mt-5 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700"
        >
          {error}
        </p>
      )}

      {googleEnabled && (
        <>
          <Button
            variant="secondary"
            size="lg"
            className="mt-6 w-full"
            disabled={busy}
            onClick={() => {
              setError(undefined);
              void signIn("google", { callbackUrl: returnTo ?? "/profile" });
            }}
          >
            <GoogleMark />
            Continue with Google
          </Button>
          <div
            className="my-6 flex items-center gap-3 text-xs font-medium uppercase tracking-wide text-slate-500"
            aria-hidden
          >
            <span className="h-px flex-1 bg-slate-200" />
            or
            <span className="h-px flex-1 bg-slate-200" />
          </div>
        </>
      )}

      <form onSubmit={onSubmit} noValidate className={`space-y-4 ${googleEnabled ? "" : "mt-6"}`}>
        {signingUp && (
          <Field id="auth-name" label="Display name (optional)" error={fieldErrors.name}>
            <Input
              id="auth-name"
              name="name"
              autoComplete="nickname"
              maxLength={NAME_MAX}
              value={name}
              invalid={Boolean(fieldErrors.name)}
              onChange={(e) => {
                setName(e.target.value);
                clearFieldError("name");
              }}
            />
          </Field>
        )}
        <Field id="auth-email" label="Email" error={fieldErrors.email}>
          <Input
            id="auth-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            invalid={Boolean(fieldErrors.email)}
            onChange={(e) => {
              setEmail(e.target.value);
              clearFieldError("email");
            }}
          />
        </Field>
        {signingUp && fieldErrors.email === AUTH_TEXT.emailInUse && (
          <button
            type="button"
            onClick={switchMode}
            className="-mt-2 text-sm font-semibold text-brand-700 underline"
          >
            Sign in instead
          </button>
        )}
        <Field
          id="auth-password"
          label="Password"
          error={fieldErrors.password}
          hint={signingUp ? PASSWORD_HINT : undefined}
        >
          <PasswordInput
            id="auth-password"
            name="password"
            autoComplete={signingUp ? "new-password" : "current-password"}
            required
            value={password}
            invalid={Boolean(fieldErrors.password)}
            onChange={(e) => {
              setPassword(e.target.value);
              clearFieldError("password");
            }}
          />
        </Field>
        <Button type="submit" size="lg" className="w-full" disabled={busy}>
          {busy ? "Please wait..." : signingUp ? "Sign Up" : "Sign In"}
        </Button>
      </form>

      {!signingUp && (
        <p className="mt-4 text-center text-sm">
          <Link href="/forgot-password" className="font-semibold text-brand-700 hover:underline">
            Forgot password?
          </Link>
        </p>
      )}

      <p className="mt-5 text-center text-sm">
        <button
          type="button"
          onClick={switchMode}
          disabled={busy}
          className="font-semibold text-brand-700 hover:underline disabled:opacity-50"
        >
          {signingUp ? "Already have an account? Sign In" : "Need an account? Sign Up"}
        </button>
      </p>
    </Card>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 48 48" className="h-5 w-5">
      <path
        fill="#EA4335"
        d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.2C12.5 13.6 17.8 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z"
      />
      <path
        fill="#FBBC05"
        d="M10.6 28.5c-.5-1.4-.8-2.9-.8-4.5s.3-3.1.8-4.5l-7.9-6.2C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.2z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.1 1.4-4.9 2.3-8.2 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.2C6.6 42.6 14.6 48 24 48z"
      />
    </svg>
  );
}
