/** The zapdesk mark and word. */
export function Logo({ className = '', inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight ${className}`}>
      <svg viewBox="0 0 32 32" className="size-7" aria-hidden="true">
        <rect width="32" height="32" rx="8" className={inverted ? 'fill-white' : 'fill-brand'} />
        <path d="M9 10h14l-10 12h10" fill="none" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" className={inverted ? 'stroke-teal-800' : 'stroke-on-brand'} />
      </svg>
      <span className="text-lg">zapdesk</span>
    </span>
  );
}
