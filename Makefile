# checkoutd: make run starts the service on the embedded database with a demo shop; make test tests it.
# make run lets outbound calls reach private and loopback addresses (CHECKOUT_OUTBOUND_ALLOW_PRIVATE),
# so that a gateway or webhook receiver on this machine can be tried; production leaves it off.
# Without CHECKOUT_SECRET_KEY, the key that seals the shops' secrets is kept in checkout.db.key
# beside the database, made (and said so) on first use: back it up with the database.
GO ?= go
BIN := bin/checkoutd
export CHECKOUT_ADDR ?= 127.0.0.1:8080
export CHECKOUT_DATABASE_URL ?= file:checkout.db

.PHONY: build run test test-go generate check-generated lint bench bench-quick vendor-htmx vendor-graphiql vendor-openapi

# checkoutd version prints these; a build without them falls back on what Go records.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)

build:
	$(GO) build -ldflags "-X main.version=$(VERSION) -X main.commit=$(COMMIT)" -o $(BIN) ./cmd/checkoutd

run: build
	$(BIN) migrate
	$(BIN) demo
	CHECKOUT_OUTBOUND_ALLOW_PRIVATE=true $(BIN) serve --no-migrate

test: lint test-go

test-go:
	$(GO) test -race -count=1 -parallel 4 -timeout 15m ./...

# Regenerates ent (with the GraphQL schema it derives), gqlgen, templ, a migration for each
# dialect when the ent schema changed (NAME names it: make generate NAME=add_orders), and
# docs/errors.md from the registry of errors in service/problem.
NAME ?= change
generate:
	cd ent && $(GO) run -mod=mod entc.go
	$(GO) tool gqlgen generate --config gqlgen.yml
	$(GO) tool templ generate -path web
	$(GO) run ./ent/migrate/gen $(NAME)
	$(GO) run ./cmd/errorsdoc

# Fails when the committed generated code is not what make generate produces.
check-generated: generate
	@git add -N . && git diff --exit-code --stat -- ent graph web docs/errors.md go.mod go.sum || \
		(echo "generated code is stale: run make generate and commit the result" >&2; exit 1)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:" $$out >&2; exit 1; fi
	$(GO) vet ./...

# Load harness: starts checkoutd itself on fresh SQLite and PostgreSQL databases and writes
# docs/benchmarks.md and docs/bench/ (about 12 minutes: the platform connector's figures 4 of
# them, the customer list's 4, a million customers loaded on each database; it stops itself at
# 30; bench-quick under 3). While working on some figures, run them alone, e.g. `go run
# ./cmd/checkoutd-bench -only connector -databases sqlite -out bin/c.md -json bin/c.json`
# (-only's names: -h).
bench: build
	$(GO) run ./cmd/checkoutd-bench -bin $(BIN)

bench-quick: build  # writes bin/benchmarks-quick.md, leaving docs/ as the last full run left it
	$(GO) run ./cmd/checkoutd-bench -bin $(BIN) -quick -out bin/benchmarks-quick.md -json bin/bench/quick.json

# Vendors htmx from npm into web/static (web/static/README.md); nothing runs node at run time.
HTMX_VERSION ?= 2.0.11
vendor-htmx:
	tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent htmx.org@$(HTMX_VERSION) >/dev/null && tar xzf htmx.org-$(HTMX_VERSION).tgz && \
		cp package/dist/htmx.min.js $(CURDIR)/web/static/htmx-$(HTMX_VERSION).min.js && cp package/LICENSE $(CURDIR)/web/static/htmx-LICENSE && rm -rf $$tmp

# Vendors GraphiQL's UMD build and the React it runs on from npm into web/static
# (web/static/README.md). GraphiQL's build bundles graphql-js (GRAPHQL_VERSION names the one it
# bundles), whose licence comes along.
GRAPHIQL_VERSION ?= 3.9.0
REACT_VERSION ?= 18.3.1
GRAPHQL_VERSION ?= 16.9.0
vendor-graphiql:
	tmp=$$(mktemp -d) && cd $$tmp && \
		npm pack --silent graphiql@$(GRAPHIQL_VERSION) react@$(REACT_VERSION) react-dom@$(REACT_VERSION) graphql@$(GRAPHQL_VERSION) >/dev/null && \
		for p in graphiql-$(GRAPHIQL_VERSION) react-$(REACT_VERSION) react-dom-$(REACT_VERSION) graphql-$(GRAPHQL_VERSION); do mkdir $$p && tar xzf $$p.tgz -C $$p; done && \
		cp graphiql-$(GRAPHIQL_VERSION)/package/graphiql.min.js $(CURDIR)/web/static/graphiql-$(GRAPHIQL_VERSION).min.js && \
		cp graphiql-$(GRAPHIQL_VERSION)/package/graphiql.min.css $(CURDIR)/web/static/graphiql-$(GRAPHIQL_VERSION).min.css && \
		cp graphiql-$(GRAPHIQL_VERSION)/package/LICENSE $(CURDIR)/web/static/graphiql-LICENSE && \
		cp react-$(REACT_VERSION)/package/umd/react.production.min.js $(CURDIR)/web/static/react-$(REACT_VERSION).production.min.js && \
		cp react-$(REACT_VERSION)/package/LICENSE $(CURDIR)/web/static/react-LICENSE && \
		cp react-dom-$(REACT_VERSION)/package/umd/react-dom.production.min.js $(CURDIR)/web/static/react-dom-$(REACT_VERSION).production.min.js && \
		cp react-dom-$(REACT_VERSION)/package/LICENSE $(CURDIR)/web/static/react-dom-LICENSE && \
		cp graphql-$(GRAPHQL_VERSION)/package/LICENSE $(CURDIR)/web/static/graphql-LICENSE && rm -rf $$tmp

# Vendors Swagger UI (swagger-ui-dist, its self-contained bundle and style sheet) from npm into
# web/static for the REST API's reference page, GET /docs (web/static/README.md).
SWAGGER_UI_VERSION ?= 5.35.0
vendor-openapi:
	tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent swagger-ui-dist@$(SWAGGER_UI_VERSION) >/dev/null && tar xzf swagger-ui-dist-$(SWAGGER_UI_VERSION).tgz && \
		cp package/swagger-ui-bundle.js $(CURDIR)/web/static/swagger-ui-$(SWAGGER_UI_VERSION)-bundle.js && \
		cp package/swagger-ui.css $(CURDIR)/web/static/swagger-ui-$(SWAGGER_UI_VERSION).css && \
		cp package/LICENSE $(CURDIR)/web/static/swagger-ui-LICENSE && cp package/NOTICE $(CURDIR)/web/static/swagger-ui-NOTICE && \
		cp package/swagger-ui-bundle.js.LICENSE.txt $(CURDIR)/web/static/swagger-ui-bundle-LICENSES.txt && rm -rf $$tmp
