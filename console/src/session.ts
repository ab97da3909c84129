/** The API key of this tab: kept in session storage (gone with the tab), removed on sign-out. */
const KEY = 'toolplane.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
