package main

import (
	"encoding/json"
	"go/build"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/pecanvet/pecanvet/passes/pecan"
	"github.com/pecanvet/pecanvet/passes/symbolic"
)

// isVetInvocation reports whether the go command runs pecanvet as a vet
// tool: "-V=full" and "-flags" queries, or the analysis of one package
// described by a .cfg file (the last argument).
func isVetInvocation(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "-V=full", "-V", "-flags":
		return true
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

// vetMain runs the unitchecker protocol with pecanvet's analyzer. Units
// analyzed only for their facts (dependencies: VetxOnly) get no dynamic
// work; a standard-library dependency gets no analysis (noStdFacts).
func vetMain(args []string) {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		var cfg struct {
			ImportPath string
			GoFiles    []string
			VetxOnly   bool
			VetxOutput string
		}
		if b, err := os.ReadFile(args[len(args)-1]); err == nil && json.Unmarshal(b, &cfg) == nil && cfg.VetxOnly {
			if isStd(cfg.ImportPath, cfg.GoFiles) {
				noStdFacts()
			}
			pecan.SkipDynamic = true
		}
	}
	unitchecker.Main(pecan.ForReplay(replayFlag(args)))
}

// noStdFacts makes a standard-library dependency's unit cheap: go vet asks
// for its facts, and passes/symbolic exports none for the standard library
// (pecanvet records only user code), so nothing that declares facts needs
// to run. Without a fact type unitchecker runs no analyzer on the unit and
// only type-checks it, writing its types and empty facts, which is what
// the analysis would have written, without building the SSA of runtime,
// math and the rest to throw it away. Most of a first run's cost after
// install is type-checking those packages, which unitchecker must still
// do: on examples/demo with a fresh GOCACHE this saves about 6% of the
// CPU time (2.92 s to 2.75 s user, three runs each, side by side).
func noStdFacts() {
	symbolic.Analyzer.FactTypes = nil
}

// replayFlag returns the value of -pecan.replay among args as the flag
// package will parse it (the last setting wins; a malformed value is left
// for unitchecker to report): pecan.ForReplay needs it before
// unitchecker.Main parses the flags.
func replayFlag(args []string) bool {
	replay := true
	for _, arg := range args {
		if !strings.HasPrefix(arg, "-") || arg == "--" {
			break // the flags end here
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(arg[1:], "-"), "=")
		if name != "pecan.replay" {
			continue
		}
		if !hasValue {
			replay = true
		} else if b, err := strconv.ParseBool(value); err == nil {
			replay = b
		}
	}
	return replay
}

// isStd reports whether a unit is a standard-library package, as
// passes/symbolic decides it: a path whose first element has no dot, with
// its files under GOROOT/src. (The config's Standard map covers only the
// unit's imports.)
func isStd(path string, files []string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || len(files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	src := filepath.Join(build.Default.GOROOT, "src") + string(filepath.Separator)
	for _, f := range files {
		if !strings.HasPrefix(filepath.Clean(f), src) {
			return false
		}
	}
	return true
}
