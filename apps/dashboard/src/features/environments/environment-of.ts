// Whether a project is an environment (a copy at `{parent}--{name}`) and of which parent: the API
// adds `environment` and `parent` to those only. Read by the project's frame and its pages.
import type { Project } from '../projects/api/get-project.ts';

/** What the API says of a project that is an environment: its name and its parent. */
export interface EnvironmentOf {
  name: string;
  parent: { slug: string; name: string };
}

/** The environment a project is, or null. */
export function environmentOf(project: Project): EnvironmentOf | null {
  return project.environment && project.parent ? { name: project.environment, parent: project.parent } : null;
}

/** "staging" → "Staging": how the banner names an environment. */
export const titleOf = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
