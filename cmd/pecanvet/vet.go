package main

import (
	"encoding/json"
	"os"
	"strconv"
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
	unitchecker.Main(pecan.ForReplay(replayFlag(args)))
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
