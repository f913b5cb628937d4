// A project's environments through the management API (§ Environments): copies of it at
// `{parent}--{name}`, listed, made, deleted and promoted through the parent's routes. The queries
// are filed under the parent (['project', parent, 'environments']); a copy running is polled.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Project } from '../../api.ts';
import { projectKey } from '../../project.ts';

export type EnvironmentStatus = 'copying' | 'ready' | 'failed';

export interface Environment {
  name: string;
  slug: string;
  status: EnvironmentStatus;
  apiUrl: string;
  graphqlUrl: string;
  createdAt: string;
  /** why the copy failed (status failed), when the API says */
  error?: string | null;
}

export interface PromoteStep {
  kind: string;
  uid: string;
  attribute?: string | null;
  destructive: boolean;
  /** the API's words for the step, when it gives them */
  description?: string;
}

export interface PromoteAnswer {
  /** `changed` with no steps: the models differ only in what stores nothing (names shown, options). */
  plan: { steps: PromoteStep[]; changed: boolean };
  applied: boolean;
  /** the backup of the parent taken before applying (null for a dry run or no change) */
  backup?: { id: string } | null;
}

/** The contract's environment names. */
export const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]{0,19}$/;
export const NAME_RULE = 'Start with a lowercase letter, then up to 19 lowercase letters, digits or dashes.';

/** What the API says of a project that is an environment: its name and its parent. */
export interface EnvironmentOf {
  name: string;
  parent: { slug: string; name: string };
}

/** The environment a project is (the API adds `environment` and `parent` to those only), or null. */
export function environmentOf(project: Project): EnvironmentOf | null {
  const p = project as Project & { environment?: string; parent?: { slug: string; name: string } };
  return p.environment && p.parent ? { name: p.environment, parent: p.parent } : null;
}

/** "staging" → "Staging": how the banner names an environment. */
export const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** How often a running copy is asked about. */
const POLL_MS = 1000;

export const environmentsKey = (parent: string) => projectKey(parent, 'environments');

/** `enabled`: false until wanted (the switcher asks once its menu opens). */
export function useEnvironments(parent: string, enabled = true) {
  return useQuery({
    queryKey: environmentsKey(parent),
    enabled,
    queryFn: async () => (await api<{ environments: Environment[] }>('GET', `/v1/projects/${parent}/environments`)).environments,
    refetchInterval: (q) => (q.state.data?.some((e) => e.status === 'copying') ? POLL_MS : false),
  });
}

/** Starts a copy: the new environment shows at once (copying), then the list follows it. */
export function useCreateEnvironment(parent: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => (await api<{ environment: Environment }>('POST', `/v1/projects/${parent}/environments`, { name })).environment,
    onSuccess: (env) => {
      client.setQueryData<Environment[]>(environmentsKey(parent), (list = []) => [...list.filter((e) => e.name !== env.name), env]);
      void client.invalidateQueries({ queryKey: environmentsKey(parent) });
    },
  });
}

export function useDeleteEnvironment(parent: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<void>('DELETE', `/v1/projects/${parent}/environments/${name}`),
    onSuccess: (_, name) => {
      client.setQueryData<Environment[]>(environmentsKey(parent), (list = []) => list.filter((e) => e.name !== name));
      // The deleted project's cached data is stale: read again (a 404) if it is opened again. Not
      // refetched now: its page, if open, is left for the parent's.
      void client.invalidateQueries({ queryKey: projectKey(`${parent}--${name}`), refetchType: 'none' });
      void client.invalidateQueries({ queryKey: environmentsKey(parent) });
    },
  });
}

/** The plan (`dryRun`) or its application; `confirm` goes with a destructive plan. */
export function promote(parent: string, name: string, body: { dryRun: true } | { dryRun: false; confirm?: true }): Promise<PromoteAnswer> {
  return api<PromoteAnswer>('POST', `/v1/projects/${parent}/environments/${name}/promote`, body);
}

const WORDS: Record<string, string> = {
  createContentType: 'Create content type', dropContentType: 'Delete content type', createComponent: 'Create component',
  dropComponent: 'Delete component', addAttribute: 'Add field', dropAttribute: 'Delete field', renameAttribute: 'Rename field',
};

/** A step's kind in words ("addAttribute" → "Add field"; an unknown kind split into words). */
export function kindLabel(kind: string): string {
  if (WORDS[kind]) return WORDS[kind];
  const words = kind.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
