/** Gives every component the DoctorApi of this door (Electron preload or HTTP). */
import { createContext, useContext, type ReactNode } from 'react';
import type { DoctorApi } from '../../../shared/api';

const ApiContext = createContext<DoctorApi | null>(null);

export function ApiProvider({ api, children }: { api: DoctorApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): DoctorApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiProvider');
  return api;
}
