package main

import (
	"encoding/json"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/pecanvet/pecanvet/passes/pecan"
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
// work.
func vetMain(args []string) {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		var cfg struct{ VetxOnly bool }
		if b, err := os.ReadFile(args[len(args)-1]); err == nil && json.Unmarshal(b, &cfg) == nil && cfg.VetxOnly {
			pecan.SkipDynamic = true
		}
	}
	// The dynamic analyzer needs no SSA or facts; only -pecan.replay=false
	// (report the static candidates) needs the SSA-based analyzers.
	a := pecan.Analyzer
	for _, arg := range args {
		if arg == "-pecan.replay=false" || arg == "--pecan.replay=false" {
			a = pecan.StaticAnalyzer
		}
	}
	unitchecker.Main(a)
}
