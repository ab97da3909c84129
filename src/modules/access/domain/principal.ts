/** Who is calling. Until API keys with roles arrive, the one principal is the admin. */
export interface Principal {
  id: string;
  name: string;
  roles: string[];
}

export const ANONYMOUS_DEVELOPER: Principal = { id: 'anonymous', name: 'anonymous (auth off)', roles: ['admin'] };
export const ADMIN: Principal = { id: 'admin', name: 'admin', roles: ['admin'] };
