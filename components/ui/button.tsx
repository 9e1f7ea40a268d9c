import Link from "next/link";
import type { ComponentProps } from "react";

type Variant = "primary" | "secondary" | "danger" | "ghost" | "success" | "positive" | "pending" | "quiet";
type Size = "sm" | "md" | "lg";

const variants: Record<Variant, string> = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/50",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/50",
  success: "bg-emerald-700 text-white hover:bg-emerald-800 disabled:bg-emerald-700/50",
  ghost: "text-slate-700 hover:bg-slate-100 disabled:text-slate-400",
  // states shown as a (disabled) button: a good one ("You're in", "Confirmed") and a closed one
  positive: "bg-emerald-50 text-emerald-800 ring-1 ring-inset ring-emerald-200 disabled:cursor-default",
  // a place held but not counted yet ("Counts when 8 are in", issue 34)
  pending: "bg-amber-50 text-amber-900 ring-1 ring-inset ring-amber-200 disabled:cursor-default",
  quiet: "bg-slate-100 text-slate-700 ring-1 ring-inset ring-slate-200 disabled:cursor-default",
};
const sizes: Record<Size, string> = {
  sm: "px-3 py-1.5 text-sm",
  md: "px-4 py-2 text-sm",
  lg: "px-5 py-3 text-base",
};

export function buttonClass(variant: Variant = "primary", size: Size = "md", extra = "") {
  return `inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed ${variants[variant]} ${sizes[size]} ${extra}`;
}

export function Button({
  variant = "primary",
  size = "md",
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & { variant?: Variant; size?: Size }) {
  return <button type={type} className={buttonClass(variant, size, className)} {...props} />;
}

export function ButtonLink({
  variant = "primary",
  size = "md",
  className = "",
  ...props
}: ComponentProps<typeof Link> & { variant?: Variant; size?: Size }) {
  return <Link className={buttonClass(variant, size, className)} {...props} />;
}
