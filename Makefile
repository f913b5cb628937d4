# The two commands a newcomer runs: `make start` and `make test`.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json
# Files that measure latency under load run alone after the others (their numbers would be the
# other test files' load, not what they measure).
SOLO_TEST_FILES = test/integration/tenant-fairness.test.ts
TEST_FILES = $(filter-out $(SOLO_TEST_FILES),$(shell find packages apps test -name '*.test.ts' -not -path '*/node_modules/*' | sort))
TEST_CONCURRENCY ?= 4

.PHONY: move-project clusters start worker test install typecheck client bench bench-100k bench-scale bench-export bench-environments bench-cache bench-memory bench-live services dashboard screenshots build start-cluster stop-cluster cluster-status

DASHBOARD_DIST := apps/dashboard/dist/index.html
DASHBOARD_SOURCES = $(shell find apps/dashboard/src -type f) apps/dashboard/index.html apps/dashboard/vite.config.ts apps/dashboard/package.json

$(NODE_MODULES): package.json $(wildcard packages/*/package.json apps/*/package.json)
	@command -v node >/dev/null || { echo "Node.js 20+ is required (apt-get install nodejs npm)"; exit 1; }
	npm install --no-audit --no-fund
	@touch $(NODE_MODULES)

install: $(NODE_MODULES)

## The dashboard (React + Vite), rebuilt only when its sources changed.
$(DASHBOARD_DIST): $(NODE_MODULES) $(DASHBOARD_SOURCES)
	npm run build --silent -w @cms/dashboard
	@touch $(DASHBOARD_DIST)

dashboard: $(DASHBOARD_DIST)

## The compiled server (dist/: gateway, worker, migrate; esbuild), rebuilt only when a source,
## a package manifest or a source directory (a file added or removed) is newer than it.
SERVER_DIST := dist/gateway.js
SERVER_SOURCES = $(shell find apps/gateway/src apps/worker/src packages/*/src \( -type d -o -name '*.ts' \) -not -name '*.test.ts') \
  $(wildcard packages/*/package.json) apps/gateway/package.json apps/worker/package.json scripts/build.ts scripts/cms-server.ts

$(SERVER_DIST): $(NODE_MODULES) $(SERVER_SOURCES)
	node --import tsx scripts/build.ts
	@touch $(SERVER_DIST)

build: $(SERVER_DIST)

## Run the platform (embedded Postgres and in-process jobs unless DATABASE_URL / REDIS_URL are set):
## one `node` process on the compiled gateway.
start: install dashboard build
	exec node dist/gateway.js

## A separate media worker (needs DATABASE_URL and REDIS_URL; gateways also process jobs unless MEDIA_WORKER=false).
worker: install build
	exec node dist/worker.js

## Two gateways, one worker, this machine's Postgres and Redis and an S3 store (s3rver), as background
## processes (pids and logs in .cluster/); see docs/operations.md § A local cluster.
start-cluster: install services dashboard build
	@node --import tsx scripts/cluster/cli.ts start

stop-cluster:
	@node --import tsx scripts/cluster/cli.ts stop

cluster-status:
	@node --import tsx scripts/cluster/cli.ts status

## Projects on several Postgres clusters (DATABASE_URLS): move one, list the clusters
## (docs/operations.md § More than one Postgres cluster).
move-project: install build
	@test -n "$(SLUG)" -a -n "$(CLUSTER)" || { echo "usage: make move-project SLUG=<slug> CLUSTER=<cluster>"; exit 2; }
	node dist/move-project.js "$(SLUG)" "$(CLUSTER)"

clusters: install build
	@node dist/move-project.js --clusters

typecheck: install
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p apps/dashboard/tsconfig.json --noEmit
	npx tsc -p scripts/tsconfig.json --noEmit

services:
	@bash scripts/ensure-services.sh

## The management API's typed client (@cms/management-api src/generated/: the /v1 OpenAPI document
## and its types), made from the routes' schemas without a database; commit what it writes.
client: install
	node --import tsx scripts/generate-client.ts

## Type-check, then run every test file against the real Postgres and Redis.
test: install services typecheck dashboard
	node --import tsx --test --test-concurrency=$(TEST_CONCURRENCY) --test-timeout=300000 $(TEST_FILES)
	node --import tsx --test --test-concurrency=1 --test-timeout=300000 $(SOLO_TEST_FILES)

## Refresh the dashboard screenshots in docs/screenshots (the browser journey, saving its pages).
screenshots: install services dashboard
	mkdir -p docs/screenshots
	UPDATE_SCREENSHOTS=1 node --import tsx --test --test-timeout=300000 test/integration/dashboard-browser.test.ts test/integration/dashboard-billing-browser.test.ts test/integration/dashboard-usage-browser.test.ts test/integration/dashboard-content-browser.test.ts \
	  test/integration/dashboard-media-browser.test.ts test/integration/dashboard-backups-browser.test.ts test/integration/dashboard-environments-browser.test.ts

## Benchmark our gateway against a hand-written fastify+pg server (autocannon, same run), then
## what content history costs a write (two gateways, CONTENT_HISTORY on and off), then the answer
## cache's targets (bench-cache). BENCH_DOCS=100000 (or more) runs the large mode instead (bench-100k).
BENCH_DOCS ?= $(or $(BENCH_DOCUMENTS),10000)
BENCH_CACHE_DOCS ?= 100000
bench: install services
ifeq ($(shell [ "$(BENCH_DOCS)" -ge 100000 ] && echo large),large)
	BENCH_DOCS=$(BENCH_DOCS) node --import tsx test/bench/large.ts
else
	BENCH_DOCUMENTS=$(BENCH_DOCS) node --import tsx test/bench/run.ts
	node --expose-gc --import tsx test/bench/graphql-schema-cost.ts
	node --import tsx test/bench/history-cost.ts
endif
	BENCH_DOCS=$(BENCH_CACHE_DOCS) node --import tsx test/bench/answer-cache.ts

## The answer cache (100,000 documents, BENCH_CACHE_DOCS): repeated reads (hits), reads that never
## repeat (misses) and creates, cache on and off, against the hand-written servers of bench-100k.
## Writes docs/performance.md § bench-answer-cache.
bench-cache: install services
	BENCH_DOCS=$(BENCH_CACHE_DOCS) node --import tsx test/bench/answer-cache.ts

## A gateway's RSS under mixed load with a 16 MB answer cache (BENCH_MEMORY_MINUTES, 30 by default),
## and a fresh one's idle. Writes docs/performance.md § bench-memory.
bench-memory: install services
	node --import tsx test/bench/memory.ts

## 100,000 documents (SQL-seeded): ours against a hand-written server counting exactly with count(*)
## and one keeping its exact counts without rescanning; identical bodies checked first.
bench-100k: install services
	BENCH_DOCS=100000 node --import tsx test/bench/large.ts

## Exports, backups and an in-place restore of the bench project (BENCH_DOCUMENTS, 10,000 by
## default) against pg_dump of its schema; writes docs/performance.md § bench-export.
bench-export: install services
	BENCH_DOCUMENTS=$(BENCH_DOCS) node --import tsx test/bench/export.ts

## An environment (a copy) of the bench project (BENCH_DOCUMENTS, 10,000 by default), alone and
## while clients read and write the parent; writes docs/performance.md § bench-environments.
bench-environments: install services
	BENCH_DOCUMENTS=$(BENCH_DOCS) node --import tsx test/bench/environments.ts

## 10 -> 100 -> 1,000 -> 10,000 projects on one gateway, warm reads beside a hand-written server (BENCH_SCALE_MAX=1000 stops earlier;
## BENCH_SCALE_STEPS=10,100,1000,2000 replaces the steps). Writes docs/performance.md § bench-scale.
## BENCH_SCALE_KEEP=1 keeps its database; BENCH_SCALE_REUSE=1 then measures only the warm reads on it.
## BENCH_SCALE_SECTION=bench-scale-answers writes a shorter run to its own section instead.
bench-scale: install services
	node --import tsx test/bench/scale.ts

## 10,000 live streams (SSE) of one project on one gateway: RSS growth and the time until every
## stream has a change (BENCH_LIVE_STREAMS, BENCH_LIVE_CHANGES). Writes docs/performance.md § bench-live.
bench-live: install services
	node --import tsx test/bench/live.ts
