// A kustomize build of the subset infra/k8s uses, for tests on machines without the kustomize
// binary (no maintained JavaScript implementation exists): resources (files and directories with
// a kustomization.yaml), namespace, labels (metadata only), images, patches (strategic merge, or
// JSON 6902 with a target) and replacements (with delimiter/index options). Any other field of a
// kustomization is refused, so the manifests cannot drift out of what this builds. Where
// `kubectl kustomize` exists, deploy-manifests.test.ts checks this gives the same objects.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export type K8sObject = Record<string, any> & { apiVersion: string; kind: string; metadata: Record<string, any> };

/** Parse every document of a YAML file; comments-only documents are skipped, errors thrown. */
export function readYamlDocuments(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches', 'replacements']);

/** Kinds kustomize's namespace transformer leaves alone (cluster-scoped). */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'ClusterSecretStore', 'ClusterIssuer', 'StorageClass', 'PriorityClass', 'IngressClass']);

/** Strategic-merge keys of the lists the patches touch (as in the Kubernetes API's patchMergeKey). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  imagePullSecrets: 'name',
};

interface Target { kind?: string; name?: string }

const clone = <T>(value: T): T => structuredClone(value);
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function buildKustomization(dir: string): K8sObject[] {
  const file = join(dir, 'kustomization.yaml');
  const [k] = readYamlDocuments(file) as Array<Record<string, any>>;
  if (k?.kind !== 'Kustomization') throw new Error(`${file}: not a Kustomization`);
  const unknown = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unknown.length > 0) throw new Error(`${file}: fields outside the supported subset: ${unknown.join(', ')}`);

  let objects: K8sObject[] = [];
  for (const entry of (k.resources ?? []) as string[]) {
    const path = resolve(dir, entry);
    if (statSync(path).isDirectory()) objects.push(...buildKustomization(path));
    else objects.push(...(readYamlDocuments(path) as K8sObject[]));
  }
  objects = objects.map(clone);
  const byId = new Set<string>();
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata.name}`;
    if (byId.has(id)) throw new Error(`${file}: ${id} defined twice`);
    byId.add(id);
  }

  for (const patch of (k.patches ?? []) as Array<{ path?: string; patch?: string; target?: Target }>) applyPatch(objects, patch, dir);
  if (k.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  for (const group of (k.labels ?? []) as Array<{ pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }>) {
    if (group.includeSelectors || group.includeTemplates) throw new Error(`${file}: labels.includeSelectors/includeTemplates are not supported`);
    for (const o of objects) o.metadata.labels = { ...(o.metadata.labels ?? {}), ...group.pairs };
  }
  for (const image of (k.images ?? []) as Array<{ name: string; newName?: string; newTag?: string }>) setImage(objects, image);
  for (const replacement of (k.replacements ?? []) as Replacement[]) replace(objects, replacement);
  return objects;
}

function matches(o: K8sObject, target: Target): boolean {
  return (target.kind === undefined || o.kind === target.kind) && (target.name === undefined || o.metadata.name === target.name);
}

function only(objects: K8sObject[], target: Target, what: string): K8sObject[] {
  const found = objects.filter((o) => matches(o, target));
  if (found.length === 0) throw new Error(`${what}: no object matches ${JSON.stringify(target)}`);
  return found;
}

function applyPatch(objects: K8sObject[], patch: { path?: string; patch?: string; target?: Target }, dir: string): void {
  const docs = patch.path ? readYamlDocuments(resolve(dir, patch.path)) : readYamlDocumentsOf(patch.patch ?? '');
  if (docs.length === 1 && Array.isArray(docs[0])) {
    if (!patch.target) throw new Error('a JSON 6902 patch needs a target');
    for (const o of only(objects, patch.target, 'patch')) applyJson6902(o, docs[0] as JsonOp[]);
    return;
  }
  for (const doc of docs as K8sObject[]) {
    const target = patch.target ?? { kind: doc.kind, name: doc.metadata?.name };
    for (const o of only(objects, target, `patch ${patch.path ?? ''}`)) {
      const merged = strategicMerge(o, doc);
      for (const key of Object.keys(o)) delete o[key];
      Object.assign(o, merged);
    }
  }
}

function readYamlDocumentsOf(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length > 0) throw new Error(d.errors.map((e) => e.message).join('; '));
    return d.toJS();
  });
}

/** Strategic merge: maps merge (null deletes), lists with a merge key merge by it, others are replaced. */
export function strategicMerge(base: any, patch: any, key?: string): any {
  if (isObject(base) && isObject(patch)) {
    const out: Record<string, any> = { ...base };
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete out[k];
      else out[k] = k in base ? strategicMerge(base[k], v, k) : clone(v);
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(patch) && key && MERGE_KEYS[key]) {
    const mergeKey = MERGE_KEYS[key];
    const out = base.map(clone);
    const added: any[] = [];
    for (const item of patch) {
      const at = out.findIndex((e) => e[mergeKey] === item[mergeKey]);
      if (at >= 0) out[at] = strategicMerge(out[at], item);
      else added.push(clone(item));
    }
    // kustomize puts items the base lacks first.
    return [...added, ...out];
  }
  return clone(patch);
}

interface JsonOp { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown }

function pointer(path: string): string[] {
  if (!path.startsWith('/')) throw new Error(`JSON pointer must start with /: ${path}`);
  return path.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function applyJson6902(o: K8sObject, ops: JsonOp[]): void {
  for (const op of ops) {
    const parts = pointer(op.path);
    const last = parts.pop()!;
    let parent: any = o;
    for (const p of parts) {
      parent = Array.isArray(parent) ? parent[Number(p)] : parent?.[p];
      if (parent === undefined) throw new Error(`${o.kind}/${o.metadata.name}: ${op.op} ${op.path}: no such path`);
    }
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, clone(op.value));
      else if (index >= parent.length) throw new Error(`${op.path}: index out of range`);
      else if (op.op === 'replace') parent[index] = clone(op.value);
      else parent.splice(index, 1);
      continue;
    }
    if (op.op !== 'add' && !(last in parent)) throw new Error(`${o.kind}/${o.metadata.name}: ${op.op} ${op.path}: no such path`);
    if (op.op === 'remove') delete parent[last];
    else parent[last] = clone(op.value);
  }
}

/** Every container (and init container) of a workload's pod template. */
export function containersOf(o: K8sObject): Array<Record<string, any>> {
  const pod = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec;
  return pod ? [...(pod.initContainers ?? []), ...(pod.containers ?? [])] : [];
}

function setImage(objects: K8sObject[], image: { name: string; newName?: string; newTag?: string }): void {
  for (const o of objects) {
    for (const c of containersOf(o)) {
      const [name, tag] = splitImage(c.image);
      if (name !== image.name) continue;
      c.image = `${image.newName ?? name}${image.newTag ?? tag ? `:${image.newTag ?? tag}` : ''}`;
    }
  }
}

/** `repo/name:tag` → [`repo/name`, `tag`] (a registry port's colon is not a tag's). */
export function splitImage(image: string): [string, string | undefined] {
  const at = image.lastIndexOf(':');
  return at > image.lastIndexOf('/') ? [image.slice(0, at), image.slice(at + 1)] : [image, undefined];
}

interface FieldOptions { delimiter?: string; index?: number }
interface Replacement {
  source: Target & { fieldPath: string; options?: FieldOptions };
  targets: Array<{ select: Target; fieldPaths: string[]; options?: FieldOptions }>;
}

/** `spec.template.spec.containers.[name=gateway].image` → the parent and key of that field. */
function locate(o: K8sObject, fieldPath: string): { parent: any; key: string } {
  const parts = fieldPath.split('.').reduce<string[]>((acc, p) => {
    // `[name=x.y]` may hold dots: glue it back together.
    if (acc.length > 0 && acc[acc.length - 1].startsWith('[') && !acc[acc.length - 1].endsWith(']')) acc[acc.length - 1] += `.${p}`;
    else acc.push(p);
    return acc;
  }, []);
  let node: any = o;
  for (const part of parts.slice(0, -1)) {
    const selector = /^\[(.+)=(.+)\]$/.exec(part);
    node = selector ? (node as any[]).find((e) => String(e[selector[1]]) === selector[2]) : node?.[part];
    if (node === undefined) throw new Error(`${o.kind}/${o.metadata.name}: no field ${fieldPath}`);
  }
  return { parent: node, key: parts[parts.length - 1] };
}

function replace(objects: K8sObject[], r: Replacement): void {
  const sources = only(objects, r.source, 'replacement source');
  if (sources.length !== 1) throw new Error('replacement source must match one object');
  const { parent, key } = locate(sources[0], r.source.fieldPath);
  let value = String(parent[key]);
  if (r.source.options?.delimiter !== undefined) value = value.split(r.source.options.delimiter)[r.source.options.index ?? 0];
  for (const target of r.targets) {
    for (const o of only(objects, target.select, 'replacement target')) {
      for (const path of target.fieldPaths) {
        const at = locate(o, path);
        const opts = target.options;
        if (opts?.delimiter !== undefined) {
          const pieces = String(at.parent[at.key]).split(opts.delimiter);
          pieces[opts.index ?? 0] = value;
          at.parent[at.key] = pieces.join(opts.delimiter);
        } else at.parent[at.key] = value;
      }
    }
  }
}
