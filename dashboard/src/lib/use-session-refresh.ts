import { useEffect, useRef } from 'react';

const REFRESH_MS = 30_000;

/**
 * Re-reads the session when the window regains focus, on every navigation and every 30 s while
 * the tab is visible, so a team the user was added to (or removed from) shows without a reload.
 */
export function useSessionRefresh(signedIn: boolean, refresh: () => Promise<void>, pathname: string): void {
  useEffect(() => {
    if (!signedIn) return;
    const check = () => void refresh();
    const checkIfVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    window.addEventListener('focus', check);
    document.addEventListener('visibilitychange', checkIfVisible);
    const timer = window.setInterval(checkIfVisible, REFRESH_MS);
    return () => {
      window.removeEventListener('focus', check);
      document.removeEventListener('visibilitychange', checkIfVisible);
      window.clearInterval(timer);
    };
  }, [signedIn, refresh]);
  const previousPath = useRef(pathname);
  useEffect(() => {
    if (previousPath.current === pathname) return;
    previousPath.current = pathname;
    if (signedIn) void refresh();
  }, [signedIn, refresh, pathname]);
}
