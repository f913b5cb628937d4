// A project's webhooks as the management API returns them, and their queries.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { projectKey } from '../../project.ts';

export const WEBHOOK_EVENTS = [
  { value: 'entry.create', label: 'Entry created' },
  { value: 'entry.update', label: 'Entry updated' },
  { value: 'entry.delete', label: 'Entry deleted' },
  { value: 'entry.publish', label: 'Entry published' },
  { value: 'entry.unpublish', label: 'Entry unpublished' },
  { value: 'media.create', label: 'Media uploaded' },
  { value: 'media.update', label: 'Media updated' },
  { value: 'media.delete', label: 'Media deleted' },
  { value: 'releases.publish', label: 'Release published' },
] as const;

export interface Webhook {
  id: number;
  name: string;
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  at: string;
}

export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'dead';

export interface Delivery {
  id: number;
  webhookId: number;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  durationMs: number | null;
  responseStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
  log: DeliveryAttempt[];
}

export const webhooksKey = (slug: string) => projectKey(slug, 'webhooks');

export function useWebhooks(slug: string) {
  return useQuery({
    queryKey: webhooksKey(slug),
    queryFn: async () => (await api<{ webhooks: Webhook[] }>('GET', `/v1/projects/${slug}/webhooks`)).webhooks,
  });
}

/** The delivery log, refreshed while something is on its way. */
export function useDeliveries(slug: string, webhookId: number) {
  return useQuery({
    queryKey: [...webhooksKey(slug), String(webhookId), 'deliveries'],
    queryFn: async () => (await api<{ deliveries: Delivery[] }>('GET', `/v1/projects/${slug}/webhooks/${webhookId}/deliveries`)).deliveries,
    refetchInterval: 2000,
  });
}
