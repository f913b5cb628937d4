# The two commands a newcomer runs: `make start` and `make test`.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json
TEST_FILES = $(shell find packages apps test -name '*.test.ts' -not -path '*/node_modules/*' | sort)
TEST_CONCURRENCY ?= 4

.PHONY: start worker test install typecheck bench services dashboard screenshots

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

## Run the platform (embedded Postgres and in-process jobs unless DATABASE_URL / REDIS_URL are set).
start: install dashboard
	npx tsx apps/gateway/src/main.ts

## A separate media worker (needs DATABASE_URL and REDIS_URL; gateways also process jobs unless MEDIA_WORKER=false).
worker: install
	npx tsx apps/worker/src/main.ts

typecheck: install
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p apps/dashboard/tsconfig.json --noEmit

services:
	@bash scripts/ensure-services.sh

## Type-check, then run every test file against the real Postgres and Redis.
test: install services typecheck dashboard
	node --import tsx --test --test-concurrency=$(TEST_CONCURRENCY) --test-timeout=300000 $(TEST_FILES)

## Refresh the dashboard screenshots in docs/screenshots (the browser journey, saving its pages).
screenshots: install services dashboard
	mkdir -p docs/screenshots
	UPDATE_SCREENSHOTS=1 node --import tsx --test --test-timeout=300000 test/integration/dashboard-browser.test.ts test/integration/dashboard-billing-browser.test.ts

## Benchmark our gateway against a hand-written fastify+pg server (autocannon, same run).
bench: install services
	node --import tsx test/bench/run.ts
	node --expose-gc --import tsx test/bench/graphql-schema-cost.ts
