// The usage a project's pages read (keys under ['project', slug, 'usage', …]; the month's
// report shares its key with the Overview and Billing pages).
import { useQuery } from '@tanstack/react-query';
import { api, type Usage } from '../../api.ts';
import { projectKey } from '../../project.ts';

/** A plan's limits; a null or negative limit means none. */
export interface PlanLimits {
  requestsPerMonth: number | null;
  requestsPerSecond: number | null;
  storageBytes: number | null;
  documents: number | null;
  maxUploadBytes: number | null;
}

export interface UsageDay {
  date: string;
  requests: number;
  rejected: number;
}

export interface Rejections {
  perSecond: number;
  monthly: number;
  auth: number;
}

export interface RouteUsage {
  route: string;
  requests: number;
}

/** The window of the Usage page: the last 30 days, today included (UTC). */
export const USAGE_DAYS = 30;
export const TOP_ROUTES = 10;

export function useMonthUsage(slug: string) {
  return useQuery({ queryKey: projectKey(slug, 'usage'), queryFn: () => api<Usage & { limits: PlanLimits }>('GET', `/v1/projects/${slug}/usage`) });
}

export function useDailyUsage(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'usage', 'daily'),
    queryFn: async () => (await api<{ days: UsageDay[] }>('GET', `/v1/projects/${slug}/usage/daily?days=${USAGE_DAYS}`)).days,
  });
}

export function useRejections(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'usage', 'rejections'),
    queryFn: () => api<{ days: Array<Rejections & { date: string }>; total: Rejections }>('GET', `/v1/projects/${slug}/usage/rejections?days=${USAGE_DAYS}`),
  });
}

export function useTopRoutes(slug: string) {
  return useQuery({
    queryKey: projectKey(slug, 'usage', 'routes'),
    queryFn: async () => (await api<{ routes: RouteUsage[] }>('GET', `/v1/projects/${slug}/usage/routes?days=${USAGE_DAYS}&limit=${TOP_ROUTES}`)).routes,
  });
}
