# pecanvet — see README.md.
GO ?= go
BIN ?= bin

.PHONY: all build test vet demo bench eval eval-racetd eval-modules eval-trial eval-trial2 eval-trial3 eval-trial4 eval-trial5 eval-trial6 eval-trial7 eval-trial8 eval-trial9 eval-trial10 eval-trial11 eval-trial12 eval-trial13 eval-trial14 eval-trial15 eval-trial16 eval-trial17 eval-trial18 eval-trial19 eval-trial20 eval-trial21 eval-trial22 eval-trial23 eval-trial24 eval-trial25 eval-trial26 eval-trial27 eval-trial28 eval-trial29 eval-trial30 eval-trial31 eval-trial32 eval-trial33 eval-trial34 eval-trial35 eval-trial36 eval-trial37 eval-golangci eval-bugs golangci-lint fuzz clean

all: build

build:
	$(GO) build -o $(BIN)/pecanvet ./cmd/pecanvet

# The whole test suite: what CI runs.
test:
	$(GO) vet ./...
	$(GO) test -timeout 30m ./...

# Runs the main job on a bundled example: go vet with pecanvet as its vet
# tool on examples/demo (an atomicity violation go test -race cannot see).
# go vet exits 1 because it reports it.
demo: build
	@echo "== go vet -vettool=bin/pecanvet ./... in examples/demo =="
	@cd examples/demo && go vet -vettool=$(CURDIR)/$(BIN)/pecanvet ./...; status=$$?; [ $$status -le 1 ]
	@echo
	@echo "== pecanvet predict examples/fig1.trace (PECAN Figure 1, from a trace) =="
	@$(BIN)/pecanvet predict examples/fig1.trace | head -30; true

# Benchmarks: one line per measurement, "BENCH <name> key=value ...".
bench:
	$(GO) run ./internal/bench

# Short fuzzing of every decoder (the seed corpora also run in 'make test').
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzTextDecode -fuzztime=$(FUZZTIME) ./dynamic/trace/
	$(GO) test -run='^$$' -fuzz=FuzzBinaryDecode -fuzztime=$(FUZZTIME) ./dynamic/trace/
	$(GO) test -run='^$$' -fuzz=FuzzScheduleDecode -fuzztime=$(FUZZTIME) ./dynamic/trace/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./pattern/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./replay/racerun/

# The evaluation, written to EVAL.md: PECAN's Table 1 on testdata/src,
# the built pecanvet check's wall time beside go test -race on each
# subject (checkwall), the static candidates' statuses and the static
# analyzers' time beside go vet's (candidates); then every subject's
# recorded trace replayed 100 times in its own order, the tests' call
# graphs against what each test covers on every subject, and code we did
# not write (eval-racetd, eval-modules, eval-golangci).
eval:
	$(GO) run ./internal/eval -sections corpus -race-runs 100 -o EVAL.md
	$(GO) run ./internal/eval -sections checkwall -o EVAL.md
	$(GO) run ./internal/eval -sections candidates -o EVAL.md
	PECANVET_DETERMINISM_RUNS=10 $(GO) test -v -count=1 -timeout 60m -run TestDeterminism ./check/ | grep -E 'runs|^(ok|FAIL|---)'
	PECANVET_SUBJECTS=all $(GO) test -count=1 -timeout 60m -run TestSubjectsBehaveAlike ./dynamic/record/
	PECANVET_REACH=all $(GO) test -count=1 -timeout 30m -run TestSoundAgainstCoverage ./static/reach/
	PECANVET_OWN_ORDER=all PECANVET_REPLAY_RUNS=100 $(GO) test -v -count=1 -timeout 60m -run TestOwnOrder ./replay/ | grep -E 'replayed|^(ok|FAIL|---)'
	$(MAKE) eval-bugs eval-racetd eval-modules eval-golangci

# Kernels of real concurrency bugs from public issue trackers, each with
# its upstream fix (testdata/bugs, a module of its own): go vet
# -vettool=pecanvet beside one go test -race run and one plain go test
# -timeout 20s run (the bugs section of EVAL.md; a few minutes).
eval-bugs:
	$(GO) run ./internal/eval -sections bugs -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Go's race testdata as a module: go vet -vettool=pecanvet beside go test
# -race (the race-testdata section of EVAL.md). EVAL_VETFLAGS adds go vet
# flags, e.g. EVAL_VETFLAGS=-pecan.budget=2m.
EVAL_VETFLAGS ?=
eval-racetd:
	$(GO) run ./internal/eval -sections racetd -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# The pinned modules of internal/eval/modules.txt from the module proxy
# (needs it; long): the real-modules section of EVAL.md. EVAL_MODULES
# selects some, e.g. EVAL_MODULES=golang.org/x/sync,pubsub. EVAL_COLD
# names the modules also run from a fresh, empty build cache, go vet and
# go test -race alike (the cold rows: the first run after install);
# EVAL_COLD= for none.
EVAL_MODULES ?=
EVAL_COLD ?= golang.org/x/sync
eval-modules:
	$(GO) run ./internal/eval -sections modules -modules="$(EVAL_MODULES)" -cold="$(EVAL_COLD)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# The trial list, internal/eval/modules-trial.txt: modules of each kind
# issue 26 names (caches, circuit breakers, schedulers, lock-free maps,
# event buses, lock-order checkers, pools), checked as eval-modules does,
# triaged in the same triage.md, written to EVAL.md's modules-trial
# section. EVAL_MODULES selects some. Not part of make eval (long).
eval-trial:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 16's second trial, internal/eval/modules-trial2.txt: eight more
# modules (singleflight, scheduler, object pool, multiplexer, pub/sub,
# caches), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial2 section. Not part of make eval (long).
eval-trial2:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial2.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 17's third trial, internal/eval/modules-trial3.txt: ten more
# modules (connection pool, lock-free ring buffer, MQTT broker, fake
# clock's tickers, rate limiter, batching loaders, thread-safe set, actor
# group, leak checker), checked and triaged as eval-trial, written to
# EVAL.md's modules-trial3 section. Not part of make eval (long).
eval-trial3:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial3.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 18's fourth trial, internal/eval/modules-trial4.txt: ten more
# modules (job queue, retry, Hystrix breaker, byte-buffer pool, unbounded
# channel, in-memory Redis server, MVCC database with watches, metrics
# registry, progress bars, rotating log writer), checked and triaged as
# eval-trial, written to EVAL.md's modules-trial4 section. Not part of
# make eval (long).
eval-trial4:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial4.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 19's fifth trial, internal/eval/modules-trial5.txt: twelve more
# modules covering each kind of issue 26 (caches starting hundreds of
# goroutines, a circuit breaker, cron schedulers, a lock-free map, event
# buses, a lock-order checker, plus a broker and a pool), checked and
# triaged as eval-trial, written to EVAL.md's modules-trial5 section. Not
# part of make eval (long).
eval-trial5:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial5.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 20's sixth trial, internal/eval/modules-trial6.txt: twelve more
# modules of the kinds of issue 26 that the proxy serves here (a cache
# starting hundreds of goroutines, lock-free maps and queues, cron
# schedulers, circuit breakers, a rate limiter, an event emitter, a
# singleflight, a metrics registry, a goroutine lifecycle tracker),
# checked and triaged as eval-trial, written to EVAL.md's modules-trial6
# section. Not part of make eval (long).
eval-trial6:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial6.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 22's seventh trial, internal/eval/modules-trial7.txt: ten more
# modules of the kinds of issue 26 that the proxy serves here (a mock
# clock, a metrics scope tree, typed atomics, channel queues and
# adapters, retry and backoff tickers, state machines, a DI container
# shutting down in parallel), checked and triaged as eval-trial, written
# to EVAL.md's modules-trial7 section. Not part of make eval (long).
eval-trial7:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial7.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 23's eighth trial, internal/eval/modules-trial8.txt: twelve more
# modules of the kinds of issue 26 that the proxy serves here (two caches
# and a session store, a copy-on-write B-tree and a lock-free ring buffer,
# three event dispatchers, hedged requests, three checkers), checked and
# triaged as eval-trial, written to EVAL.md's modules-trial8 section. Not
# part of make eval (long).
eval-trial8:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial8.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 24's ninth trial, internal/eval/modules-trial9.txt: twelve more
# modules of the kinds of issue 26 that the proxy serves here, checked and
# triaged as eval-trial, written to EVAL.md's modules-trial9 section. Not
# part of make eval (long).
eval-trial9:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial9.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 26's tenth trial, internal/eval/modules-trial10.txt: twelve more
# modules (caches, lock-free maps, goroutine pools, queues) checked and
# triaged as eval-trial, written to EVAL.md's modules-trial10 section. Not
# part of make eval (long).
eval-trial10:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial10.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 26's eleventh trial, internal/eval/modules-trial11.txt: twelve
# more modules (pipelines, schedulers, circuit breakers, event buses and
# brokers, a rate limiter, JSON-RPC) checked and triaged as eval-trial,
# written to EVAL.md's modules-trial11 section. Not part of make eval.
eval-trial11:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial11.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 27's twelfth and thirteenth trials, internal/eval/modules-trial12.txt
# (goroutine pools, bounded groups, a debouncer, a buffer pool, a generic
# synchronization library) and modules-trial13.txt (multiplexers, metrics
# and statsd clients, a time-series store, loggers): two halves of one
# trial, checked and triaged as eval-trial, written to EVAL.md's
# modules-trial12 and modules-trial13 sections. Not part of make eval.
eval-trial12:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial12.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

eval-trial13:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial13.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 28's fourteenth trial, internal/eval/modules-trial14.txt: seven
# more modules (a stream multiplexer, a statsd client, a file tailer,
# progress bars, promises, a disk-backed cache, an atomic boolean; the
# proxy here refused the new candidates of issue 26's kinds), checked and
# triaged as eval-trial, written to EVAL.md's modules-trial14 section. Not
# part of make eval.
eval-trial14:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial14.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 29's fifteenth trial, internal/eval/modules-trial15.txt: five
# more modules (an in-memory database with lock-free reads, a log rotator
# with a scheduled rotation goroutine, websocket connections, a lossy
# connection emulator with a timed sender, an error group; the proxy serves
# no new module of the other kinds issue 26 names), checked and triaged as
# eval-trial, written to EVAL.md's modules-trial15 section. Not part of
# make eval.
eval-trial15:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial15.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 30's sixteenth trial, internal/eval/modules-trial16.txt: seven
# more modules (a terminal UI runtime, an SSH server, an in-memory file
# system, a DNS server, an SFTP server, websocket connections, a virtual
# network with proxies and queues; the proxy serves no new module of the
# kinds issue 26 names), checked and triaged as eval-trial, written to
# EVAL.md's modules-trial16 section. Not part of make eval.
eval-trial16:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial16.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 31's seventeenth trial, internal/eval/modules-trial17.txt: six
# more modules (a load generator's rate limiter and completion barriers,
# two routers' throttle and rate-limiter middleware, SMTP and IMAP
# servers, a terminal's event queue), checked and triaged as eval-trial,
# written to EVAL.md's modules-trial17 section. Not part of make eval.
eval-trial17:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial17.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 32's eighteenth trial, internal/eval/modules-trial18.txt:
# twelve modules the served list does not name, taken from the module
# proxy (three caches, a cron runner, a supervisor tree, an SSE broker,
# three lock utilities, a goroutine pool, a blocking file queue, a rate
# limiter), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial18 section. Not part of make eval.
eval-trial18:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial18.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 34's nineteenth trial, internal/eval/modules-trial19.txt: seven
# modules the served list does not name, taken from the module proxy (an
# authorization enforcer with a cache and an auto-load goroutine, a
# progress renderer, a parallel image loop, a concurrent test runner, a
# batching database client, a scraper with rate limits, a mail broker
# with a message hub), checked and triaged as eval-trial, written to
# EVAL.md's modules-trial19 section. Not part of make eval.
eval-trial19:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial19.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 35's twentieth trial, internal/eval/modules-trial20.txt: three
# modules the served list does not name, taken from the module proxy (a
# sharded concurrent map, an event client with channel and HTTP
# transports, a load generator's pacer and worker pool), checked and
# triaged as eval-trial, written to EVAL.md's modules-trial20 section.
# Not part of make eval.
eval-trial20:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial20.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 36's twenty-first trial, internal/eval/modules-trial21.txt:
# six modules from the module proxy (two server-sent-events brokers, a
# token-bucket rate limiter, a gossip membership library, a real-time
# messaging server, and trial 19's never-evaluated mail broker),
# checked and triaged as eval-trial, written to EVAL.md's
# modules-trial21 section. Not part of make eval.
eval-trial21:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial21.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 39's twenty-second trial, internal/eval/modules-trial22.txt:
# six modules from the module proxy (a milter server and client, a
# non-blocking network engine, an HTTP client with retries, a
# server-sent-events generator, an application lifecycle, a logger),
# checked and triaged as eval-trial, written to EVAL.md's
# modules-trial22 section. Not part of make eval.
eval-trial22:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial22.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 40's twenty-third trial, internal/eval/modules-trial23.txt:
# eight modules from the module proxy (an OIDC verifier's key cache, a
# JWK set store with a refresh goroutine, a TLS certificate manager with
# its job manager and renewal backoff, a GraphQL executor resolving
# fields in parallel, an SQS/SNS emulator, a zero-downtime upgrader, an
# HTTP mock transport and an SQL driver mock), checked and triaged as
# eval-trial, written to EVAL.md's modules-trial23 section. Not part of
# make eval.
eval-trial23:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial23.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 41's twenty-fourth trial, internal/eval/modules-trial24.txt:
# modules from the module proxy of the kinds issue 26 names (see the
# list's header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial24 section. Not part of make eval.
eval-trial24:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial24.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 42's twenty-fifth trial, internal/eval/modules-trial25.txt:
# modules from the module proxy of the kinds issue 26 names (see the
# list's header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial25 section. Not part of make eval.
eval-trial25:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial25.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 44's twenty-sixth trial, internal/eval/modules-trial26.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial26 section. Not part of make eval.
eval-trial26:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial26.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 45's twenty-seventh trial, internal/eval/modules-trial27.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial27 section. Not part of make eval.
eval-trial27:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial27.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 46's twenty-eighth trial, internal/eval/modules-trial28.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial28 section. Not part of make eval.
eval-trial28:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial28.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 47's twenty-ninth trial, internal/eval/modules-trial29.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial29 section. Not part of make eval.
eval-trial29:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial29.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 48's thirtieth trial, internal/eval/modules-trial30.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial30 section. Not part of make eval. GONOSUMDB: the
# checksum database does not know berkaroad/detectlock-go v1.0.1, which
# the module proxy serves (the list's header).
eval-trial30:
	GONOSUMDB=github.com/berkaroad $(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial30.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 49's thirty-first trial, internal/eval/modules-trial31.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial31 section. Not part of make eval.
eval-trial31:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial31.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 50's thirty-second trial, internal/eval/modules-trial32.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial32 section. Not part of make eval.
eval-trial32:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial32.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 51's thirty-third trial, internal/eval/modules-trial33.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial33 section. Not part of make eval.
eval-trial33:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial33.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 52's thirty-fourth trial, internal/eval/modules-trial34.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial34 section. Not part of make eval.
eval-trial34:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial34.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 53's thirty-fifth trial, internal/eval/modules-trial35.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial35 section. Not part of make eval.
eval-trial35:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial35.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 54's thirty-sixth trial, internal/eval/modules-trial36.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial36 section. Not part of make eval.
eval-trial36:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial36.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# Session 55's thirty-seventh trial, internal/eval/modules-trial37.txt:
# modules from the module proxy never checked before (see the list's
# header), checked and triaged as eval-trial, written to EVAL.md's
# modules-trial37 section. Not part of make eval.
eval-trial37:
	$(GO) run ./internal/eval -sections modules -modules-file internal/eval/modules-trial37.txt -modules="$(EVAL_MODULES)" -vetflags="$(EVAL_VETFLAGS)" -o EVAL.md

# golangci-lint v2 with the pecanvet module plugin (golangci/), built from
# a module proxy alone: tools/golangci-lint is a module of its own
# (pecanvet's go.mod does not depend on golangci-lint) whose go.sum pins
# every dependency. GOLANGCI_GOPROXY is your `go env GOPROXY` less its
# "direct" and "off" entries, so that nothing is fetched with git and a
# company proxy serves as well as proxy.golang.org; if no proxy is left,
# the target fails and asks for one (GOLANGCI_GOPROXY=https://...). After a
# change to pecanvet's go.mod, `go mod tidy` in tools/golangci-lint brings
# its go.sum up to date.
GOLANGCI_GOPROXY ?= $(shell $(GO) env GOPROXY | sed -E -e ':a' -e 's/(^|[,|])(direct|off)([,|]|$$)/\1/' -e 'ta' -e 's/[,|]$$//')
golangci-lint:
	@[ -n '$(GOLANGCI_GOPROXY)' ] || { echo "golangci-lint: GOPROXY=$$($(GO) env GOPROXY) names no module proxy (direct and off are left out: nothing is fetched with git); set GOLANGCI_GOPROXY to your proxy's URL" >&2; exit 1; }
	cd tools/golangci-lint && GOPROXY='$(GOLANGCI_GOPROXY)' $(GO) build -mod=readonly -o $(abspath $(BIN))/golangci-lint .

# The plugin end to end: bin/golangci-lint with docs/golangci-lint.md's configuration
# on a subject and its fixed twin (golangci/e2e_test.go).
eval-golangci: golangci-lint
	PECANVET_GOLANGCI_LINT=$(abspath $(BIN))/golangci-lint $(GO) test -count=1 -run TestGolangciLintBinary -v ./golangci/

clean:
	rm -rf $(BIN)
