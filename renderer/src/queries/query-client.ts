/**
 * The one QueryClient of the window. Every answer comes from `cni-doctor serve` on 127.0.0.1 or
 * from the Electron main process over IPC, never from the internet, so the browser's idea of
 * being online must not hold anything back. TanStack Query's default (`networkMode: 'online'`)
 * pauses every query and mutation started after the window's `offline` event until an `online`
 * one: on a laptop with no network (a lab, a plane) the screens would wait for ever. Chromium
 * fires those events whenever a machine's last non-loopback interface comes or goes (a CNI
 * bridge on a machine with no other network is enough; CI stop 31 waited 300 s for the Demo
 * list while the lab created and removed pods' bridges).
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'always',
        refetchOnWindowFocus: false,
        // Connectivity coming back says nothing about serve or the node: no refetch storm.
        refetchOnReconnect: false,
      },
      mutations: { networkMode: 'always' },
    },
  });
}
