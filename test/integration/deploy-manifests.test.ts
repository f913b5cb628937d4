// Deployment descriptions validated without a cloud: infra/k8s (every YAML parsed, both overlays
// built, every object checked against the Kubernetes API schemas and the operators' CRD schemas,
// the platform's rules asserted) and terraform/ (every file parsed, variables and module wiring,
// no credentials, encryption and private access on the database, cache and bucket).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'slonik';
import { parseAllDocuments } from 'yaml';
import { PLAN_STATEMENT_TIMEOUT_MS } from '@cms/billing';
import { loadConfig, type Config } from '@cms/config';
import { bullPrefix, MEDIA_QUEUE } from '@cms/media';
import { WEBHOOK_QUEUE } from '@cms/webhooks';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { setupContentProject, type ContentProject } from '../helpers/content.ts';
import { blogRawModel } from '../fixtures/index.ts';
import { buildKustomization, containersOf, readYamlDocuments, splitImage, type K8sObject } from '../helpers/kustomize.ts';

// @cdktf/hcl2json's typings pull in the DOM lib, which changes `fetch`'s body types for every
// test file; load it by a name the type checker does not follow and type the one function used.
const HCL2JSON = '@cdktf/hcl2json';
const { parse: parseHcl } = (await import(HCL2JSON)) as {
  parse(fileName: string, source: string): Promise<Record<string, any>>;
};

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const K8S = join(ROOT, 'infra/k8s');
const TF = join(ROOT, 'terraform');
const OVERLAYS = ['dev', 'prod'] as const;

function filesUnder(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, test) : test(name) ? [path] : [];
  });
}

const built = Object.fromEntries(OVERLAYS.map((o) => [o, buildKustomization(join(K8S, 'overlays', o))])) as Record<(typeof OVERLAYS)[number], K8sObject[]>;
const find = (objects: K8sObject[], kind: string, name: string) => {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(o, `${kind}/${name} is built`);
  return o;
};
const workloads = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
const podSpecOf = (o: K8sObject) => o.spec.template.spec as Record<string, any>;

// ---------------------------------------------------------------------------------------------
// The environment variables the platform reads: every name in packages/config/src.

function configVariables(): { names: Set<string>; patterns: RegExp[] } {
  const names = new Set<string>();
  const patterns: RegExp[] = [];
  for (const file of filesUnder(join(ROOT, 'packages/config/src'), (n) => n.endsWith('.ts'))) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/'([A-Z][A-Z0-9_]{2,})'/g)) names.add(m[1]);
    for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]);
    // `STATEMENT_TIMEOUT_${plan.toUpperCase()}_MS`: any upper-case word in the hole.
    for (const m of source.matchAll(/`([A-Z][A-Z0-9_]*)\$\{[^}]+\}([A-Z0-9_]*)`/g)) patterns.push(new RegExp(`^${m[1]}[A-Z]+${m[2]}$`));
  }
  return { names, patterns };
}
const CONFIG = configVariables();
/** Read by Node itself, not by @cms/config: the RDS CA bundle for TLS verification (prod overlay). */
const NODE_RUNTIME_VARIABLES = new Set(['NODE_EXTRA_CA_CERTS']);
const isPlatformVariable = (name: string) =>
  CONFIG.names.has(name) || CONFIG.patterns.some((p) => p.test(name)) || NODE_RUNTIME_VARIABLES.has(name);

// ---------------------------------------------------------------------------------------------
// Kubernetes API and CRD schemas.

const MODEL_MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
  'external-secrets.io/v1': '@kubernetes-models/external-secrets/external-secrets.io/v1',
};

async function validateAgainstSchema(o: K8sObject): Promise<void> {
  const module = MODEL_MODULES[o.apiVersion];
  assert.ok(module, `${o.kind}/${o.metadata.name}: no schema for apiVersion ${o.apiVersion}`);
  const Model = (await import(module))[o.kind] as (new (data: unknown) => { validate(): void }) | undefined;
  assert.ok(Model, `${o.kind}/${o.metadata.name}: no ${o.kind} in ${module}`);
  new Model(o).validate();
}

describe('Kubernetes manifests (infra/k8s)', () => {
  it('parses every YAML file, and every kustomization uses only the supported fields', () => {
    const files = filesUnder(K8S, (n) => n.endsWith('.yaml'));
    assert.ok(files.length >= 15, `found ${files.length} files`);
    for (const file of files) {
      const docs = readYamlDocuments(file);
      assert.ok(docs.length > 0, `${relative(ROOT, file)} has a document`);
    }
    // Observability files in infra/ parse too.
    readYamlDocuments(join(ROOT, 'infra/prometheus/alerts.yml'));
    JSON.parse(readFileSync(join(ROOT, 'infra/grafana/dashboard.json'), 'utf8'));
  });

  it('refuses a kustomization field outside the supported subset', () => {
    // The builder is what keeps the files in that subset: prove it says no.
    const dir = mkdtempSync(join(tmpdir(), 'kustomize-'));
    try {
      writeFileSync(join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamePrefix: x-\nresources: []\n');
      assert.throws(() => buildKustomization(dir), /fields outside the supported subset: namePrefix/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const overlay of OVERLAYS) {
    describe(`overlay ${overlay}`, () => {
      const objects = built[overlay];

      it('builds the expected objects, each valid against its API schema', async () => {
        const ids = objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
        for (const id of [
          'Deployment/cms-gateway', 'Deployment/cms-worker', 'Service/cms-gateway', 'Ingress/cms',
          'HorizontalPodAutoscaler/cms-gateway', 'PodDisruptionBudget/cms-gateway', 'ScaledObject/cms-worker',
          'TriggerAuthentication/cms-redis', 'ConfigMap/cms-config', 'ServiceMonitor/cms-gateway',
          'NetworkPolicy/cms-default-deny', 'NetworkPolicy/cms-gateway-ingress',
        ]) assert.ok(ids.includes(id), `${overlay} builds ${id}`);
        assert.equal(objects.filter((o) => o.kind === 'Job').length, 1);
        for (const o of objects) await validateAgainstSchema(o);
        const namespace = overlay === 'prod' ? 'cms' : 'cms-dev';
        for (const o of objects) assert.equal(o.metadata.namespace, namespace, `${o.kind}/${o.metadata.name} namespace`);
      });

      it('sets probes on every Deployment container: readiness /readyz, liveness /healthz where it serves HTTP', () => {
        for (const d of objects.filter((o) => o.kind === 'Deployment')) {
          for (const c of containersOf(d)) {
            assert.ok(c.readinessProbe, `${d.metadata.name}/${c.name} readinessProbe`);
            assert.ok(c.livenessProbe, `${d.metadata.name}/${c.name} livenessProbe`);
            assert.ok(c.startupProbe, `${d.metadata.name}/${c.name} startupProbe`);
          }
        }
        const gateway = containersOf(find(objects, 'Deployment', 'cms-gateway'))[0];
        assert.equal(gateway.readinessProbe.httpGet.path, '/readyz');
        assert.equal(gateway.livenessProbe.httpGet.path, '/healthz');
        assert.equal(gateway.startupProbe.httpGet.path, '/healthz');
      });

      it('probes the worker over HTTP on the port it opens: readiness /readyz, startup and liveness /healthz', () => {
        const worker = containersOf(find(objects, 'Deployment', 'cms-worker'))[0];
        const port = (worker.ports as Array<{ name: string; containerPort: number }>).find((p) => p.name === 'health');
        assert.ok(port, 'the worker names its health port');
        // The worker opens WORKER_HEALTH_PORT as its environment sets it (ConfigMap, then env).
        const values = Object.fromEntries((worker.env as Array<{ name: string; value?: string }>).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
        const config = loadConfig({ ...find(objects, 'ConfigMap', 'cms-config').data, ...values, DATABASE_URL: 'postgres://cms@db/cms', APP_SECRET: 'x'.repeat(32) });
        assert.equal(config.workerHealthPort, port.containerPort);
        assert.equal(config.host, '0.0.0.0', 'the probes reach the pod\'s address');
        assert.deepEqual(worker.readinessProbe.httpGet, { path: '/readyz', port: 'health' });
        assert.deepEqual(worker.livenessProbe.httpGet, { path: '/healthz', port: 'health' });
        assert.deepEqual(worker.startupProbe.httpGet, { path: '/healthz', port: 'health' });
      });

      it('sets requests and limits, non-root, a read-only root, no privilege escalation and no capabilities', () => {
        for (const w of workloads(objects)) {
          const pod = podSpecOf(w);
          assert.equal(pod.automountServiceAccountToken, false, `${w.metadata.name}: no API token`);
          for (const c of containersOf(w)) {
            const where = `${w.kind}/${w.metadata.name}/${c.name}`;
            for (const kind of ['requests', 'limits'] as const) {
              assert.ok(c.resources?.[kind]?.cpu, `${where} ${kind}.cpu`);
              assert.ok(c.resources?.[kind]?.memory, `${where} ${kind}.memory`);
            }
            assert.equal(c.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot, true, `${where} runAsNonRoot`);
            assert.ok((c.securityContext?.runAsUser ?? pod.securityContext?.runAsUser) > 0, `${where} runs as a non-zero uid`);
            assert.equal(c.securityContext?.readOnlyRootFilesystem, true, `${where} readOnlyRootFilesystem`);
            assert.equal(c.securityContext?.allowPrivilegeEscalation, false, `${where} allowPrivilegeEscalation`);
            assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL'], `${where} drops ALL capabilities`);
          }
        }
      });

      it('pins every image to a tag (never latest), one image for gateway, worker and migrations', () => {
        const images = new Set<string>();
        for (const w of workloads(objects)) {
          for (const c of containersOf(w)) {
            const [, tag] = splitImage(c.image);
            assert.ok(tag, `${w.metadata.name}/${c.name}: ${c.image} has a tag`);
            assert.notEqual(tag, 'latest', `${w.metadata.name}/${c.name}: not latest`);
            images.add(c.image);
          }
        }
        assert.equal(images.size, 1, [...images].join(', '));
        const job = objects.find((o) => o.kind === 'Job')!;
        const [, tag] = splitImage([...images][0]);
        assert.equal(job.metadata.name, `cms-migrate-${tag}`, 'the migrations Job is named after the release tag');
        assert.deepEqual(containersOf(job)[0].args, ['migrate']);
        assert.deepEqual(containersOf(find(objects, 'Deployment', 'cms-gateway'))[0].args, ['gateway']);
        assert.deepEqual(containersOf(find(objects, 'Deployment', 'cms-worker'))[0].args, ['worker']);
      });

      it('holds no secret value: no Secret objects, secrets only by reference', () => {
        for (const o of objects) {
          assert.notEqual(o.kind, 'Secret', `${o.metadata.name}: Secrets are created outside the repository`);
          assert.equal(o.data === undefined && o.stringData === undefined || o.kind === 'ConfigMap', true);
        }
        const cm = find(objects, 'ConfigMap', 'cms-config');
        for (const key of Object.keys(cm.data)) {
          assert.ok(!/SECRET|TOKEN|PASSWORD|DATABASE_URL|REDIS_URL|SMTP_URL|ACCESS_KEY/.test(key), `ConfigMap holds no secret (${key})`);
        }
        for (const w of workloads(objects)) {
          for (const c of containersOf(w)) {
            for (const e of c.env ?? []) {
              if (/SECRET|TOKEN|PASSWORD|_URL$|ACCESS_KEY/.test(e.name) && e.name !== 'MEDIA_PUBLIC_URL') {
                assert.ok(e.valueFrom?.secretKeyRef, `${w.metadata.name}/${c.name}: ${e.name} comes from a Secret`);
              }
            }
          }
        }
      });

      it('reads only variables the platform knows, and its ConfigMap loads with @cms/config', () => {
        const cm = find(objects, 'ConfigMap', 'cms-config');
        for (const key of Object.keys(cm.data)) assert.ok(isPlatformVariable(key), `ConfigMap key ${key} is read by @cms/config`);
        for (const w of workloads(objects)) {
          for (const c of containersOf(w)) {
            for (const e of c.env ?? []) assert.ok(isPlatformVariable(e.name), `${w.metadata.name}/${c.name}: ${e.name} is read by @cms/config`);
            for (const from of c.envFrom ?? []) assert.equal(from.configMapRef?.name, 'cms-config');
          }
        }
        const config = loadConfig({ ...cm.data, DATABASE_URL: 'postgres://cms@db/cms', APP_SECRET: 'x'.repeat(32) });
        assert.equal(config.host, '0.0.0.0');
        assert.equal(config.production, true);
        assert.equal(config.media.workerInGateway, false, 'the worker Deployment processes media');
        assert.equal(config.webhooks.worker, false, 'the worker Deployment delivers webhooks');
        assert.equal(config.trustProxy, 1);
        const gateway = containersOf(find(objects, 'Deployment', 'cms-gateway'))[0];
        assert.equal(gateway.ports.find((p: any) => p.name === 'http').containerPort, config.port);
      });

      it('drains within terminationGracePeriodSeconds: preStop sleep, then the longest plan statement and media wait', () => {
        const d = find(objects, 'Deployment', 'cms-gateway');
        const pod = podSpecOf(d);
        const gateway = containersOf(d)[0];
        const preStop = gateway.lifecycle.preStop.sleep.seconds as number;
        assert.ok(preStop >= 10, 'endpoints are removed before the drain starts');
        const config = loadConfig({ ...find(objects, 'ConfigMap', 'cms-config').data, DATABASE_URL: 'postgres://cms@db/cms', APP_SECRET: 'x'.repeat(32) });
        const longestRequestS = (Math.max(...Object.values(PLAN_STATEMENT_TIMEOUT_MS)) + config.media.processingWaitMs) / 1000;
        assert.ok(pod.terminationGracePeriodSeconds >= preStop + longestRequestS, `${pod.terminationGracePeriodSeconds} s ≥ ${preStop} + ${longestRequestS} s`);
        // The worker finishes a webhook attempt (WEBHOOKS_TIMEOUT_MS) and hands a longer job back by its lock.
        assert.ok(podSpecOf(find(objects, 'Deployment', 'cms-worker')).terminationGracePeriodSeconds >= config.webhooks.timeoutMs / 1000);
      });

      it('wires services, autoscaling, disruption budgets, ingress and scraping to what exists', () => {
        const gateway = find(objects, 'Deployment', 'cms-gateway');
        const podLabels = gateway.spec.template.metadata.labels;
        const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
        const service = find(objects, 'Service', 'cms-gateway');
        assert.ok(selects(service.spec.selector, podLabels), 'Service selects the gateway pods');
        assert.ok(selects(find(objects, 'PodDisruptionBudget', 'cms-gateway').spec.selector.matchLabels, podLabels));
        assert.ok(selects(find(objects, 'PodDisruptionBudget', 'cms-worker').spec.selector.matchLabels, find(objects, 'Deployment', 'cms-worker').spec.template.metadata.labels));
        assert.deepEqual(gateway.spec.template.spec.topologySpreadConstraints.map((t: any) => t.topologyKey).sort(), ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);

        const hpa = find(objects, 'HorizontalPodAutoscaler', 'cms-gateway');
        assert.equal(hpa.spec.scaleTargetRef.name, 'cms-gateway');
        assert.deepEqual(hpa.spec.metrics.map((m: any) => m.type).sort(), ['Pods', 'Resource']);
        assert.equal(hpa.spec.metrics.find((m: any) => m.type === 'Pods').pods.metric.name, 'cms_http_requests_per_second');
        assert.ok(hpa.spec.minReplicas >= 1 && hpa.spec.maxReplicas > hpa.spec.minReplicas);
        assert.equal(gateway.spec.replicas, undefined, 'the HPA owns replicas');

        const so = find(objects, 'ScaledObject', 'cms-worker');
        assert.equal(so.spec.scaleTargetRef.name, 'cms-worker');
        assert.ok(so.spec.minReplicaCount >= 1, 'a worker always runs: it relays the webhook outbox');
        const config = loadConfig({ ...find(objects, 'ConfigMap', 'cms-config').data, DATABASE_URL: 'postgres://cms@db/cms', APP_SECRET: 'x'.repeat(32) });
        const prefix = bullPrefix(config as Config);
        assert.deepEqual(so.spec.triggers.map((t: any) => t.metadata.listName).sort(), [MEDIA_QUEUE, WEBHOOK_QUEUE].map((q) => `${prefix}:${q}:wait`).sort());
        for (const t of so.spec.triggers) assert.equal(t.authenticationRef.name, find(objects, 'TriggerAuthentication', 'cms-redis').metadata.name);

        const ingress = find(objects, 'Ingress', 'cms');
        assert.deepEqual(ingress.spec.rules.map((r: any) => r.host), [config.baseDomain, `*.${config.baseDomain}`]);
        for (const rule of ingress.spec.rules) {
          const backend = rule.http.paths[0].backend.service;
          assert.equal(backend.name, service.metadata.name);
          assert.ok(service.spec.ports.some((p: any) => p.name === backend.port.name));
        }
        if (overlay === 'prod') {
          assert.equal(ingress.spec.ingressClassName, 'alb');
          assert.match(ingress.metadata.annotations['alb.ingress.kubernetes.io/certificate-arn'], /^arn:aws:acm:/);
          assert.equal(ingress.metadata.annotations['alb.ingress.kubernetes.io/healthcheck-path'], '/readyz');
        }

        const sm = find(objects, 'ServiceMonitor', 'cms-gateway');
        assert.ok(selects(sm.spec.selector.matchLabels, service.metadata.labels), 'ServiceMonitor selects the Service');
        const endpoint = sm.spec.endpoints[0];
        assert.equal(endpoint.path, '/metrics');
        assert.ok(service.spec.ports.some((p: any) => p.name === endpoint.port));
        assert.deepEqual(endpoint.authorization, { type: 'Bearer', credentials: { name: 'cms-secrets', key: 'METRICS_TOKEN' } });
      });

      it('denies by default and lets the gateway in only from the ingress (and Prometheus)', () => {
        const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
        const deny = find(objects, 'NetworkPolicy', 'cms-default-deny');
        assert.deepEqual(deny.spec, { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
        const ingressRules = policies.filter((p) => p.spec.ingress);
        assert.deepEqual(ingressRules.map((p) => p.metadata.name).sort(), ['cms-gateway-ingress', 'cms-gateway-metrics']);
        for (const p of ingressRules) {
          assert.equal(p.spec.podSelector.matchLabels['app.kubernetes.io/component'], 'gateway');
          for (const rule of p.spec.ingress) {
            assert.deepEqual(rule.ports, [{ protocol: 'TCP', port: 1337 }]);
            assert.ok(rule.from.length > 0 && rule.from.every((f: any) => f.ipBlock?.cidr !== '0.0.0.0/0'), 'not from anywhere');
          }
        }
        const egressPorts = new Set(policies.flatMap((p) => (p.spec.egress ?? []).flatMap((e: any) => e.ports.map((x: any) => x.port))));
        for (const port of [53, 5432, 6379, 443, 587]) assert.ok(egressPorts.has(port), `egress on ${port}`);
      });

      it('lets the migrations run first: the documented selection holds the Job and all it needs, no gateway or worker', () => {
        // docs/operations.md: kubectl apply -k … -l 'app.kubernetes.io/component notin (gateway,worker)'
        const first = objects.filter((o) => !['gateway', 'worker'].includes(o.metadata.labels?.['app.kubernetes.io/component']));
        const has = (kind: string, name: string) => first.some((o) => o.kind === kind && o.metadata.name === name);
        assert.ok(!first.some((o) => o.kind === 'Deployment'), 'no Deployment is rolled out before the migrations');
        const job = first.find((o) => o.kind === 'Job');
        assert.ok(job, 'the migrations Job is in the first step');
        const pod = podSpecOf(job);
        assert.ok(has('ServiceAccount', pod.serviceAccountName));
        for (const c of containersOf(job)) for (const from of c.envFrom ?? []) assert.ok(has('ConfigMap', from.configMapRef.name));
        for (const name of ['cms-default-deny', 'cms-egress-dns', 'cms-egress-datastores']) assert.ok(has('NetworkPolicy', name), name);
        if (overlay === 'prod') {
          for (const c of containersOf(job)) for (const e of c.env ?? []) {
            const ref = e.valueFrom?.secretKeyRef;
            if (ref) assert.ok(first.some((o) => o.kind === 'ExternalSecret' && o.spec.target.name === ref.name), `${ref.name} is made in the first step`);
          }
          assert.ok(has('SecretStore', 'cms-aws') && has('ServiceAccount', 'cms-external-secrets'));
        }
      });

      it('references only Secrets that are created for it, by the keys they hold', () => {
        // Made outside the repository: in dev by kubectl (docs), in prod by External Secrets; the
        // RDS CA bundle by the operator from AWS's published file.
        const refs: Array<{ name: string; key: string; optional: boolean }> = [];
        for (const w of workloads(objects)) {
          for (const c of containersOf(w)) for (const e of c.env ?? []) {
            const r = e.valueFrom?.secretKeyRef;
            if (r) refs.push({ name: r.name, key: r.key, optional: r.optional === true });
          }
        }
        for (const t of find(objects, 'TriggerAuthentication', 'cms-redis').spec.secretTargetRef) refs.push({ name: t.name, key: t.key, optional: false });
        const sm = find(objects, 'ServiceMonitor', 'cms-gateway').spec.endpoints[0].authorization.credentials;
        refs.push({ name: sm.name, key: sm.key, optional: false });
        if (overlay !== 'prod') {
          assert.deepEqual([...new Set(refs.map((r) => r.name))].sort(), ['cms-billing-secrets', 'cms-keda-redis', 'cms-secrets', 'cms-smtp-secret']);
          return;
        }
        const made = new Map<string, Set<string> | 'any'>();
        for (const es of objects.filter((o) => o.kind === 'ExternalSecret')) {
          assert.equal(es.spec.secretStoreRef.name, find(objects, 'SecretStore', 'cms-aws').metadata.name);
          made.set(es.spec.target.name, es.spec.dataFrom ? 'any' : new Set(es.spec.data.map((d: any) => d.secretKey)));
        }
        for (const r of refs) {
          const keys = made.get(r.name);
          assert.ok(keys, `Secret ${r.name} is made by an ExternalSecret`);
          if (keys !== 'any') assert.ok(keys.has(r.key), `Secret ${r.name} holds ${r.key}`);
        }
        const store = find(objects, 'SecretStore', 'cms-aws');
        const sa = find(objects, 'ServiceAccount', store.spec.provider.aws.auth.jwt.serviceAccountRef.name);
        assert.match(sa.metadata.annotations['eks.amazonaws.com/role-arn'], /^arn:aws:iam::\d{12}:role\//);
        for (const name of ['cms-gateway', 'cms-worker']) {
          assert.match(find(objects, 'ServiceAccount', name).metadata.annotations['eks.amazonaws.com/role-arn'], /^arn:aws:iam::\d{12}:role\//);
        }
        assert.equal(find(objects, 'ServiceAccount', 'cms-migrate').metadata.annotations, undefined, 'migrations reach no AWS API');
      });
    });
  }

  it('builds what kubectl kustomize builds (where kubectl exists)', (t) => {
    const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
    if (probe.status !== 0) return t.skip('kubectl is not installed');
    const normalize = (objects: unknown[]): unknown => {
      const sortLists = (v: any): any => {
        if (Array.isArray(v)) {
          const items = v.map(sortLists);
          return items.every((i) => i && typeof i === 'object' && 'name' in i) ? items.sort((a, b) => String(a.name).localeCompare(String(b.name))) : items;
        }
        if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortLists(v[k])]));
        return v;
      };
      return (objects as K8sObject[]).map(sortLists).sort((a: any, b: any) => `${a.kind}/${a.metadata.name}`.localeCompare(`${b.kind}/${b.metadata.name}`));
    };
    for (const overlay of OVERLAYS) {
      const out = execFileSync('kubectl', ['kustomize', join(K8S, 'overlays', overlay)], { encoding: 'utf8' });
      const theirs = parseAllDocuments(out).map((d) => d.toJS()).filter(Boolean);
      assert.deepEqual(normalize(built[overlay]), normalize(theirs), `overlay ${overlay}`);
    }
  });

  it('keeps the Terraform-written prod files a rendering of terraform/templates', async () => {
    const outputs = await parseHcl('outputs.tf', readFileSync(join(TF, 'outputs.tf'), 'utf8'));
    for (const [name, output] of [['resources', 'k8s_prod_resources'], ['patches', 'k8s_prod_patches']] as const) {
      const template = readFileSync(join(TF, `templates/k8s-prod-${name}.yaml.tftpl`), 'utf8');
      const rendered = readFileSync(join(K8S, `overlays/prod/terraform-${name}.yaml`), 'utf8');
      const holes = [...template.matchAll(/\$\{([^}]+)\}/g)].map((m) => m[1]);
      // The template with every hole as a capture group must match the committed file exactly.
      const pattern = template.split(/\$\{[^}]+\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^\\n]+?)');
      const match = new RegExp(`^${pattern}$`).exec(rendered);
      assert.ok(match, `infra/k8s/overlays/prod/terraform-${name}.yaml is the template rendered`);
      const values = new Map<string, string>();
      holes.forEach((hole, i) => {
        const seen = values.get(hole);
        assert.ok(seen === undefined || seen === match[i + 1], `${hole} has one value`);
        values.set(hole, match[i + 1]);
      });
      // Every hole names a templatefile argument of the output.
      const call = JSON.stringify(outputs.output[output][0].value);
      const args = new Set([...call.matchAll(/\\n\s*([a-z_]+)\s*=/g)].map((m) => m[1]));
      for (const hole of holes) assert.ok(args.has(hole.split('.')[0]), `${output} passes ${hole.split('.')[0]}`);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Terraform.

interface TfModule { dir: string; files: Record<string, any>; merged: Record<string, any>; text: string }

async function loadModule(dir: string): Promise<TfModule> {
  const files: Record<string, any> = {};
  let text = '';
  const merged: Record<string, any> = {};
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.tf')).sort()) {
    const source = readFileSync(join(dir, name), 'utf8');
    text += source;
    files[name] = await parseHcl(name, source);
    for (const [block, body] of Object.entries(files[name])) {
      merged[block] ??= {};
      for (const [k, v] of Object.entries(body as Record<string, any>)) {
        if (block === 'terraform' || block === 'provider' || block === 'locals') merged[block][`${name}:${k}`] = v;
        else {
          assert.equal(merged[block][k], undefined, `${relative(ROOT, dir)}: ${block} ${k} declared twice`);
          merged[block][k] = v;
        }
      }
    }
  }
  return { dir, files, merged, text };
}

const MODULE_DIRS = [TF, ...readdirSync(join(TF, 'modules')).map((m) => join(TF, 'modules', m))];
const modulesPromise = Promise.all(MODULE_DIRS.map(loadModule));
const resourcesOf = (m: TfModule, type: string) => Object.values(m.merged.resource?.[type] ?? {}).map((r: any) => r[0]);
const moduleNamed = async (name: string) => (await modulesPromise).find((m) => basename(m.dir) === name)!;

describe('Terraform (terraform/)', () => {
  it('parses every .tf file of the root module and the modules vpc, rds, redis, s3, eks, dns, cdn, iam, secrets', async () => {
    const modules = await modulesPromise;
    assert.deepEqual(modules.slice(1).map((m) => basename(m.dir)).sort(), ['cdn', 'dns', 'eks', 'iam', 'rds', 'redis', 's3', 'secrets', 'vpc']);
    for (const m of modules) assert.ok(Object.keys(m.files).length >= 3, `${relative(ROOT, m.dir)} has main, variables and outputs`);
  });

  it('declares every variable it uses, each with a description and a type', async () => {
    for (const m of await modulesPromise) {
      const declared = m.merged.variable ?? {};
      const used = new Set([...m.text.matchAll(/\bvar\.([a-z_][a-z0-9_]*)/g)].map((x) => x[1]));
      for (const name of used) assert.ok(declared[name], `${relative(ROOT, m.dir)}: var.${name} is declared`);
      for (const [name, [v]] of Object.entries(declared) as Array<[string, any[]]>) {
        assert.ok(typeof v.description === 'string' && v.description.length > 10, `${relative(ROOT, m.dir)}: variable ${name} has a description`);
        assert.ok(v.type, `${relative(ROOT, m.dir)}: variable ${name} has a type`);
        assert.ok(used.has(name), `${relative(ROOT, m.dir)}: variable ${name} is used`);
      }
      for (const [name, [o]] of Object.entries(m.merged.output ?? {}) as Array<[string, any[]]>) {
        assert.ok(o.description, `${relative(ROOT, m.dir)}: output ${name} has a description`);
      }
    }
  });

  it('passes each module exactly its variables (all required ones) and reads only outputs it has', async () => {
    const root = (await modulesPromise)[0];
    const calls = root.merged.module as Record<string, any[]>;
    for (const [name, [call]] of Object.entries(calls)) {
      const target = await loadModule(join(TF, call.source));
      const variables = target.merged.variable as Record<string, any[]>;
      const given = Object.keys(call).filter((k) => !['source', 'for_each', 'count', 'depends_on', 'providers'].includes(k));
      for (const input of given) assert.ok(variables[input], `module.${name}: ${input} is a variable of ${call.source}`);
      for (const [v, [decl]] of Object.entries(variables)) {
        if (decl.default === undefined) assert.ok(given.includes(v), `module.${name}: required ${v} is given`);
      }
      const outputs = new Set(Object.keys(target.merged.output ?? {}));
      const read = [...root.text.matchAll(new RegExp(`module\\.${name}(?:\\[[^\\]]+\\])?\\.([a-z_]+)`, 'g'))].map((x) => x[1]);
      // `for key, db in module.rds : … db.address` reads outputs through a loop variable.
      const viaLoop = [...root.text.matchAll(new RegExp(`for \\w+, (\\w+) in module\\.${name}\\s*:[^}]*`, 'g'))]
        .flatMap((x) => [...x[0].matchAll(new RegExp(`\\b${x[1]}\\.([a-z_]+)`, 'g'))].map((y) => y[1]));
      for (const out of [...read, ...viaLoop]) assert.ok(outputs.has(out), `module.${name}.${out} is an output of ${call.source}`);
    }
  });

  it('gives example.tfvars only declared variables and every required one', async () => {
    const root = (await modulesPromise)[0];
    const tfvars = await parseHcl('example.tfvars', readFileSync(join(TF, 'example.tfvars'), 'utf8'));
    const variables = root.merged.variable as Record<string, any[]>;
    for (const key of Object.keys(tfvars)) assert.ok(variables[key], `example.tfvars: ${key} is a variable`);
    for (const [name, [v]] of Object.entries(variables)) if (v.default === undefined) assert.ok(name in tfvars, `example.tfvars sets ${name}`);
  });

  it('pins the AWS provider to v5', async () => {
    const root = (await modulesPromise)[0];
    const terraform = Object.values(root.merged.terraform)[0] as any;
    assert.match(terraform.required_providers[0].aws.version, /^~> 5\./);
  });

  it('holds no credentials', () => {
    const files = [...filesUnder(TF, (n) => /\.(tf|tfvars|tftpl)$/.test(n)), ...filesUnder(K8S, (n) => n.endsWith('.yaml'))];
    const suspicious = [
      /AKIA[0-9A-Z]{16}/, /aws_secret_access_key/i, /-----BEGIN [A-Z ]*PRIVATE KEY-----/, /\bsk_(live|test)_[0-9a-zA-Z]+/, /\bwhsec_[0-9a-zA-Z]+/,
      /(password|auth_token|secret_string|secret)\s*=\s*"(?!\$\{)[^"]+"/i, /postgres(ql)?:\/\/[^:\s$]+:[^@\s$]+@/, /rediss?:\/\/[^\s$]*:[^@\s$]+@/,
    ];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const re of suspicious) assert.doesNotMatch(text, re, `${relative(ROOT, file)} holds no credential`);
    }
  });

  it('keeps Postgres encrypted, Multi-AZ, backed up, protected and private, with the platform settings', async () => {
    const rds = await moduleNamed('rds');
    const [db] = resourcesOf(rds, 'aws_db_instance');
    assert.equal(db.storage_encrypted, true);
    assert.match(db.kms_key_id, /aws_kms_key/);
    assert.equal(db.publicly_accessible, false);
    assert.equal(db.multi_az, true);
    assert.equal(db.deletion_protection, true);
    assert.equal(db.skip_final_snapshot, false);
    assert.ok(db.backup_retention_period);
    assert.equal(db.engine, 'postgres');
    assert.match(db.engine_version, /^15/);
    assert.match(db.password, /aws_secretsmanager_secret_version/, 'password read from Secrets Manager');
    const [params] = resourcesOf(rds, 'aws_db_parameter_group');
    assert.equal(params.family, 'postgres15');
    const names = params.parameter.map((p: any) => p.name);
    for (const name of ['max_connections', 'log_min_duration_statement', 'rds.force_ssl']) assert.ok(names.includes(name), name);
    assert.ok(!names.includes('statement_timeout'), 'statement_timeout is set per plan by the platform, not globally');
    const [subnets] = resourcesOf(rds, 'aws_db_subnet_group');
    assert.match(subnets.subnet_ids, /var\.subnet_ids/);
    const root = (await modulesPromise)[0];
    assert.match(root.merged.module.rds[0].subnet_ids, /private_subnet_ids/, 'RDS lives in the private subnets');
  });

  it('keeps Redis encrypted in transit and at rest, with an AUTH token from Secrets Manager', async () => {
    const redis = await moduleNamed('redis');
    const [group] = resourcesOf(redis, 'aws_elasticache_replication_group');
    assert.equal(group.transit_encryption_enabled, true);
    assert.equal(group.at_rest_encryption_enabled, true);
    assert.equal(group.automatic_failover_enabled, true);
    assert.match(group.auth_token, /data\.aws_secretsmanager_secret_version/);
    const [params] = resourcesOf(redis, 'aws_elasticache_parameter_group');
    assert.deepEqual(params.parameter, [{ name: 'maxmemory-policy', value: 'noeviction' }], 'BullMQ needs noeviction');
  });

  it('keeps the media bucket private, versioned, encrypted, aborting unfinished uploads, behind CloudFront', async () => {
    const s3 = await moduleNamed('s3');
    const [block] = resourcesOf(s3, 'aws_s3_bucket_public_access_block');
    for (const key of ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']) assert.equal(block[key], true, key);
    assert.equal(resourcesOf(s3, 'aws_s3_bucket_versioning')[0].versioning_configuration[0].status, 'Enabled');
    const [sse] = resourcesOf(s3, 'aws_s3_bucket_server_side_encryption_configuration');
    assert.ok(['AES256', 'aws:kms'].includes(sse.rule[0].apply_server_side_encryption_by_default[0].sse_algorithm));
    const [lifecycle] = resourcesOf(s3, 'aws_s3_bucket_lifecycle_configuration');
    const abort = lifecycle.rule.find((r: any) => r.abort_incomplete_multipart_upload);
    assert.ok(abort && abort.status === 'Enabled' && abort.abort_incomplete_multipart_upload[0].days_after_initiation >= 1);
    const [cdn] = resourcesOf(s3, 'aws_cloudfront_distribution');
    assert.match(cdn.origin[0].origin_access_control_id, /aws_cloudfront_origin_access_control/);
    assert.equal(cdn.default_cache_behavior[0].viewer_protocol_policy, 'redirect-to-https');
  });

  it('gives the gateway only object access to its bucket, and each role to one service account', async () => {
    const iam = await moduleNamed('iam');
    const docs = iam.merged.data.aws_iam_policy_document;
    const actions = (doc: string) => docs[doc][0].statement.flatMap((s: any) => s.actions);
    assert.deepEqual(actions('gateway_media').sort(), ['s3:AbortMultipartUpload', 's3:DeleteObject', 's3:GetObject', 's3:ListBucket', 's3:PutObject']);
    for (const s of docs.gateway_media[0].statement) assert.ok(s.resources.every((r: string) => r.includes('var.media_bucket_arn')), 'only the media bucket');
    assert.deepEqual(actions('worker_media').sort(), ['s3:AbortMultipartUpload', 's3:GetObject', 's3:PutObject']);
    const assume = docs.assume[0];
    assert.match(JSON.stringify(assume.statement[0].condition), /system:serviceaccount:\$\{var\.namespace\}:\$\{each\.key\}/);
    assert.equal(actions('external_secrets').includes('secretsmanager:GetSecretValue'), true);
  });

  it('makes the certificate a DNS-validated wildcard of BASE_DOMAIN', async () => {
    const dns = await moduleNamed('dns');
    const [cert] = resourcesOf(dns, 'aws_acm_certificate');
    assert.equal(cert.domain_name, '${var.base_domain}');
    assert.deepEqual(cert.subject_alternative_names, ['*.${var.base_domain}']);
    assert.equal(cert.validation_method, 'DNS');
  });

  it('keeps the content API CDN to what the origin marks public, keyed by host and credential', async () => {
    const cdn = await moduleNamed('cdn');
    const [policy] = resourcesOf(cdn, 'aws_cloudfront_cache_policy');
    assert.equal(policy.min_ttl, 0);
    assert.equal(policy.default_ttl, 0, 'nothing without s-maxage is kept');
    const key = policy.parameters_in_cache_key_and_forwarded_to_origin[0];
    assert.deepEqual([...key.headers_config[0].headers[0].items].sort(), ['Authorization', 'Host', 'Origin', 'Strapi-Response-Format']);
    assert.equal(key.cookies_config[0].cookie_behavior, 'all');
    assert.equal(key.query_strings_config[0].query_string_behavior, 'all');
    const [dist] = resourcesOf(cdn, 'aws_cloudfront_distribution');
    const behavior = dist.default_cache_behavior[0];
    assert.deepEqual([...behavior.cached_methods].sort(), ['GET', 'HEAD']);
    assert.equal(behavior.allowed_methods.length, 7, 'writes pass through');
    assert.equal(dist.origin[0].custom_origin_config[0].origin_protocol_policy, 'https-only');
    const [cert] = resourcesOf(cdn, 'aws_acm_certificate');
    assert.equal(cert.provider, '${aws.us_east_1}', 'CloudFront certificates live in us-east-1');
    const root = (await modulesPromise)[0];
    const [call] = root.merged.module.cdn;
    assert.equal(call.count, '${var.api_cdn_enabled ? 1 : 0}', 'opt-in');
    assert.equal(root.merged.variable.api_cdn_enabled[0].default, false);
  });

  it('is formatted as terraform fmt does (where terraform exists)', (t) => {
    const probe = spawnSync('terraform', ['version'], { encoding: 'utf8' });
    if (probe.status !== 0) return t.skip('terraform is not installed');
    const fmt = spawnSync('terraform', ['fmt', '-check', '-recursive', TF], { encoding: 'utf8' });
    assert.equal(fmt.status, 0, `unformatted: ${fmt.stdout}`);
  });
});


// ---------------------------------------------------------------------------------------------
// The backup and restore commands of docs/operations.md, run as written against a real project.

describe('Backups and restoring one project (docs/operations.md)', () => {
  const docs = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const block = (name: string) => {
    const m = new RegExp('```sh ' + name + '\\n([\\s\\S]*?)\\n```').exec(docs);
    assert.ok(m, `docs/operations.md has the ${name} block`);
    return m[1];
  };
  let t: TestApp;
  let p: ContentProject;
  let backupDir: string;
  const run = (script: string) => {
    const r = spawnSync('bash', ['-c', script], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: t.db.url, ID: String(p.id), BACKUP_DIR: backupDir, REDIS_URL: t.env.REDIS_URL, REDIS_PREFIX: t.env.REDIS_PREFIX },
    });
    assert.equal(r.status, 0, `${script.split('\n')[0]}…: ${r.stderr}`);
    return r;
  };
  const titles = async () => {
    const res = await p.api.get('/api/posts?sort=title&fields[0]=title');
    return { status: res.statusCode, titles: res.statusCode === 200 ? res.json().data.map((d: any) => d.title) : [] };
  };

  before(async () => {
    t = await startTestApp();
    p = await setupContentProject(t, blogRawModel());
    backupDir = mkdtempSync(join(tmpdir(), 'project-backup-'));
    for (const title of ['first', 'second']) assert.equal((await p.api.post('/api/posts', { data: { title } })).statusCode, 201);
  });
  after(async () => {
    rmSync(backupDir, { recursive: true, force: true });
    await t?.close();
  });

  it('backs a project up, and restores it after a deletion and over later changes', async () => {
    run(block('project-backup'));
    for (const table of ['projects', 'api_tokens', 'schema_versions', 'roles', 'locales']) {
      const rows = readFileSync(join(backupDir, `${table}.csv`), 'utf8').trim().split('\n');
      assert.ok(rows.length >= 2, `${table}.csv holds the project's rows`);
    }
    assert.ok(statSync(join(backupDir, 'schema.dump')).size > 0);

    // A change after the backup, then the project deleted through the API.
    assert.equal((await p.api.post('/api/posts', { data: { title: 'third' } })).statusCode, 201);
    assert.equal((await p.admin.del(`/v1/projects/${p.slug}`)).statusCode, 204);
    assert.equal((await titles()).status, 404, 'the deleted project is gone');
    // Past its 7 days of restore through the API, it is purged: only the backup can bring it back.
    await t.platform.maintenance.round(new Date(Date.now() + 8 * 86_400_000), ['purge']);
    assert.equal((await t.db.pool.oneFirst(sqlCount(p.id))), 0);

    run(block('project-restore'));
    assert.equal((await t.db.pool.oneFirst(sqlCount(p.id))), 1);
    // Served again on the running gateway (once the invalidation has arrived over Redis, in
    // milliseconds), by the same API token, with the backup's documents.
    const restoredAt = Date.now();
    let served = await titles();
    while (served.status === 404 && Date.now() - restoredAt < 3000) {
      await new Promise((r) => setTimeout(r, 20));
      served = await titles();
    }
    assert.deepEqual(served, { status: 200, titles: ['first', 'second'] });
    const project = await p.admin.get(`/v1/projects/${p.slug}`);
    assert.equal(project.statusCode, 200);

    // Restoring over the live project rolls it back to the backup.
    assert.equal((await p.api.post('/api/posts', { data: { title: 'fourth' } })).statusCode, 201);
    run(block('project-restore'));
    assert.deepEqual(await titles(), { status: 200, titles: ['first', 'second'] });
    assert.equal((await p.api.post('/api/posts', { data: { title: 'after' } })).statusCode, 201, 'writes work after a restore');
  });
});

function sqlCount(id: number) {
  return sql.unsafe`SELECT count(*)::int FROM platform.projects WHERE id = ${id}`;
}
