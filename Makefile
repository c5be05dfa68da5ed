# pecanvet — see README.md.
GO ?= go
BIN ?= bin

.PHONY: all build test vet demo bench eval fuzz clean

all: build

build:
	$(GO) build -o $(BIN)/pecanvet ./cmd/pecanvet

# The whole test suite: what CI runs.
test:
	$(GO) vet ./...
	$(GO) test ./...

# Runs the main job on a bundled example.
demo: build
	@echo "== pecanvet predict on examples/fig1.trace (PECAN Figure 1) =="
	@$(BIN)/pecanvet predict examples/fig1.trace; status=$$?; [ $$status -le 1 ]
	@echo
	@echo "(go vet -vettool mode: not yet — it lands with the vet tool issue)"

# Benchmarks: one line per measurement, "BENCH <name> key=value ...".
bench:
	$(GO) run ./internal/bench

# Short fuzzing of every decoder (the seed corpora also run in 'make test').
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzTextDecode -fuzztime=$(FUZZTIME) ./ssatrace/trace/
	$(GO) test -run='^$$' -fuzz=FuzzBinaryDecode -fuzztime=$(FUZZTIME) ./ssatrace/trace/
	$(GO) test -run='^$$' -fuzz=FuzzScheduleDecode -fuzztime=$(FUZZTIME) ./ssatrace/trace/
	$(GO) test -run='^$$' -fuzz=FuzzParse -fuzztime=$(FUZZTIME) ./ssatrace/pattern/

eval:
	@echo "make eval: not yet — it lands with the evaluation corpus issue"

clean:
	rm -rf $(BIN)
