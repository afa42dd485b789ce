import './RouteLoader.css';
/** The loading animation shown while a page's code or data arrives: an equaliser. */
export function RouteLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="route-loader" role="status" aria-live="polite">
      <span className="equaliser" aria-hidden="true">
        <span />
        <span />
        <span />
        <span />
      </span>
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
