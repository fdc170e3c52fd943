// The token lives in sessionStorage only: gone when the tab closes, never in the URL, a cookie or a log.
const KEY = "vu-dashboard-token";

export const tokenStorage = {
  read(): string | null {
    try {
      return sessionStorage.getItem(KEY);
    } catch {
      return null; // storage disabled: the user signs in again on each load
    }
  },
  write(token: string): void {
    try {
      sessionStorage.setItem(KEY, token);
    } catch {
      // storage disabled: the token lives in memory for this page only
    }
  },
  clear(): void {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // nothing stored
    }
  },
};
