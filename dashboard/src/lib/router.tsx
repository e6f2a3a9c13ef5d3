import { type AnchorHTMLAttributes, type MouseEvent, useMemo, useSyncExternalStore } from 'react';

// A router of a few lines: the dashboard has a dozen flat routes and needs no nested layouts,
// loaders or code splitting.
const NAVIGATED = 'dashboard:navigated';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

const snapshot = () => window.location.pathname + window.location.search;

/** The current path and query, re-rendering on every navigation. */
export function useLocation(): { pathname: string; query: URLSearchParams } {
  const href = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => {
    const url = new URL(href, window.location.origin);
    return { pathname: url.pathname, query: url.searchParams };
  }, [href]);
}

/** Goes to `to` without reloading the page. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATED));
  if (!options.replace) window.scrollTo(0, 0);
}

/** The parameters of `pattern` (`/t/:teamId/events/:id`) in `pathname`, or undefined when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${source}/?$`).exec(pathname);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** An anchor that navigates in the page on a plain click and behaves as a link otherwise. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const modified = event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
    if (event.defaultPrevented || event.button !== 0 || modified || rest.target) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}

/**
 * A table row's click handler going to `to`: a plain click anywhere on the row but on its links
 * and buttons, which act for themselves (the row's first link is the way in for keyboards).
 */
export function openOnClick(to: string): (click: MouseEvent<HTMLElement>) => void {
  return (click) => {
    if ((click.target as Element).closest('a, button')) return;
    if (click.metaKey || click.ctrlKey || click.shiftKey || click.button !== 0) return;
    navigate(to);
  };
}
