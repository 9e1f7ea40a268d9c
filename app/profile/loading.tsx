export default function ProfileLoading() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 text-center text-slate-600" role="status">
      Loading...
    </div>
  );
}
