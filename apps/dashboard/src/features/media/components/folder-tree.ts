// Reading the flat folder list as a tree: a folder's ancestors (the breadcrumb), its children,
// its whole subtree (what deleting it takes), and where it may move to.
import type { Folder } from '../api/get-folders.ts';

export function ancestorsOf(folders: Folder[], id: number | null): Folder[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const chain: Folder[] = [];
  for (let at = id === null ? undefined : byId.get(id); at; at = at.parent === null ? undefined : byId.get(at.parent)) {
    chain.unshift(at);
    if (chain.length > folders.length) break;
  }
  return chain;
}

export const childrenOf = (folders: Folder[], parent: number | null) =>
  folders.filter((f) => f.parent === parent).sort((a, b) => a.name.localeCompare(b.name));

/** The folder and everything under it. */
export const subtreeOf = (folders: Folder[], folder: Folder) =>
  folders.filter((f) => f.path === folder.path || f.path.startsWith(`${folder.path}/`));

/** A folder's full name, from the root: `Photos / 2024`. */
export function pathLabel(folders: Folder[], folder: Folder): string {
  return ancestorsOf(folders, folder.id).map((f) => f.name).join(' / ');
}

/** Folders `folder` may move into (not itself nor one of its own), by full name. */
export function moveTargets(folders: Folder[], folder: Folder): Folder[] {
  const own = new Set(subtreeOf(folders, folder).map((f) => f.id));
  return folders.filter((f) => !own.has(f.id)).sort((a, b) => pathLabel(folders, a).localeCompare(pathLabel(folders, b)));
}
