// Command golangci-lint is golangci-lint v2 with the pecanvet module
// plugin compiled in: what `golangci-lint custom` builds from
// .custom-gcl.yml, built instead from the Go module proxy alone (`make
// golangci-lint`; golangci-lint custom clones golangci-lint with git).
//
// It lives in a module of its own so that pecanvet's go.mod does not
// depend on golangci-lint; a replace directive points it at this
// checkout of pecanvet.
package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/pecanvet/pecanvet/golangci" // registers the "pecanvet" module plugin
)

func main() {
	info := commands.BuildInfo{Version: "unknown", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/golangci/golangci-lint/v2" {
				info.Version = strings.TrimPrefix(dep.Version, "v") + "-pecanvet"
			}
		}
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
