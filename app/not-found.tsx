import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-3xl font-bold">404 Page Not Found</h1>
      <p className="mt-2 text-slate-600">The page you are looking for does not exist.</p>
      <Link href="/" className="mt-6 inline-block rounded-lg bg-brand-600 px-4 py-2 font-medium text-white">
        Go Home
      </Link>
    </div>
  );
}
