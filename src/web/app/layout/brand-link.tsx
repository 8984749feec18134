import { Link } from 'react-router';

export function BrandLink({ onClick }: { onClick?: () => void }) {
  return (
    <Link
      to="/"
      onClick={onClick}
      className="inline-flex min-h-12 items-center gap-2.5 rounded-lg pr-2 text-2xl font-bold tracking-tight text-primary"
    >
      <svg viewBox="0 0 64 64" className="size-9" aria-hidden="true">
        <rect width="64" height="64" rx="16" fill="currentColor" />
        <path
          d="M32 48s-15-8.6-15-20.2A8.3 8.3 0 0 1 32 23a8.3 8.3 0 0 1 15 4.8C47 39.4 32 48 32 48z"
          fill="#fbf8f3"
        />
      </svg>
      Memento
    </Link>
  );
}
