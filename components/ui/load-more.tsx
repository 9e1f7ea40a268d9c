/** "Show more" for a list that loads its older entries on demand, with the failure said next to it. */
export function LoadMore({
  label,
  pending,
  error,
  onClick,
  className,
}: {
  label: string;
  pending: boolean;
  error: string | null;
  onClick: () => void;
  className: string;
}) {
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={onClick}
        disabled={pending}
        className={`${className} disabled:opacity-60`}
      >
        {pending ? "Loading…" : label}
      </button>
      {error && (
        <span role="alert" className="text-sm text-red-700">
          {error}
        </span>
      )}
    </div>
  );
}
