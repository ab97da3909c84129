import { useEffect, useState } from 'preact/hooks';

/** The console's pages live under /console; the server answers index.html for every one of them. */
export const BASE = '/console';

export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path === '' ? '/' : path;
}

const listeners = new Set<() => void>();

export function navigate(path: string, replace = false): void {
  const url = BASE + path;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
}

addEventListener('popstate', () => listeners.forEach((listener) => listener()));

/** The page's path and query; re-renders on navigation. */
export function useLocation(): { path: string; search: URLSearchParams } {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = () => setTick((tick) => tick + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: currentPath(), search: new URLSearchParams(location.search) };
}

/** Matches `/sources/:name` against a path; the parameters decoded. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const regex = new RegExp(`^${pattern.replace(/:([a-zA-Z]+)/g, (_all, name: string) => (names.push(name), '([^/]+)'))}/?$`);
  const found = regex.exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]));
}

/** Keeps a page's filters in its address, so a reload or a shared link shows the same view. */
export function setQuery(params: Record<string, string>): void {
  const search = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== ''));
  const text = search.toString();
  history.replaceState(null, '', location.pathname + (text ? `?${text}` : ''));
}
