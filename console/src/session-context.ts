import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CurrentPrincipal } from './types.js';

export const MeContext = createContext<CurrentPrincipal | null>(null);

export function useMe(): CurrentPrincipal {
  const me = useContext(MeContext);
  if (!me) throw new Error('not signed in');
  return me;
}

/** What the caller's roles let it do; the server decides regardless, this only hides what would be refused. */
export function useCan(): (permission: string) => boolean {
  const me = useMe();
  return (permission) => me.permissions.includes(permission);
}
