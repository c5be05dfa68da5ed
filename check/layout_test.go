package check_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/pecanvet/pecanvet/"

// stages are the module's packages by stage of the pipeline, in order:
// a package may import packages of its own stage and of earlier ones,
// never of a later one. check, the orchestrator, calls each stage in
// this order.
var stages = [][]string{
	// The vocabulary every stage speaks, and test support built on it.
	{"pattern", "dynamic/trace", "internal/note", "internal/gen", "internal/oracle", "internal/jsonschema", "internal/tmpdir"},
	// The analyzers go vet and gopls run.
	{"passes/symbolic", "passes/candidates", "passes/candidates/candidatestest"},
	// The static side: one load of the packages, their static
	// candidates' call graphs, and the test drivers generated for them.
	{"static/locker", "static/reach", "static/load", "static/driver", "static/depend"},
	// The dynamic side: the instrumenter and the runtime it builds in,
	{"dynamic", "dynamic/rt", "dynamic/instrument"},
	// the test binaries and their processes,
	{"dynamic/testbin"},
	// recording.
	{"dynamic/record"},
	// Prediction from a recorded trace.
	{"predict/ptg", "predict/schedule", "predict/search", "predict/filter", "predict/hb", "predict"},
	// Replay of a predicted schedule, and Go's race detector for the races
	// no schedule runs back to back.
	{"replay", "replay/racerun"},
	// The orchestrator.
	{"check"},
	// What a finding says.
	{"report"},
	// The front ends, and the tools that measure them.
	{"passes/pecan", "internal/sarif", "internal/lsp", "internal/eval", "internal/bench", "cmd/pecanvet", "golangci"},
}

// TestLayout checks that no package of the module imports a package of a
// later stage, and that every package has a stage.
func TestLayout(t *testing.T) {
	rank := map[string]int{}
	for r, pkgs := range stages {
		for _, p := range pkgs {
			rank[module+p] = r
		}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports, Dir: ".."}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("loaded %d packages, want the module's", len(pkgs))
	}
	for _, p := range pkgs {
		r, ok := rank[p.PkgPath]
		if !ok {
			t.Errorf("%s has no stage: add it to stages", p.PkgPath)
			continue
		}
		for path := range p.Imports {
			if !strings.HasPrefix(path, module) {
				continue
			}
			if ri, ok := rank[path]; ok && ri > r {
				t.Errorf("%s (stage %d) imports %s, of a later stage (%d)", p.PkgPath, r, path, ri)
			}
		}
	}
}
