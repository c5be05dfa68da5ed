// Package golangci registers pecanvet as a golangci-lint v2 module plugin
// named "pecanvet".
//
// A golangci-lint binary that imports this package
// (github.com/golangci/plugin-module-register), built by `make
// golangci-lint` or by `golangci-lint custom` from .custom-gcl.yml, runs
// passes/pecan on each package it lints.
//
// # Settings
//
// The settings (linters.settings.custom.pecanvet.settings) map to the vet
// tool's -pecan.* flags:
//
//	patterns:   anomaly patterns (race, av, asv, chan, deadlock, leak, sync, order, all, files or inline text); default all
//	budget:     time for the dynamic work of one package, e.g. 2m (as -pecan.budget)
//	replay:     false reports the static candidates, marked unconfirmed, and runs nothing (the fast mode for editors); default true
//	maxreplays: replays per test at most (as -pecan.maxreplays)
//
// An unknown key is an error that names it. The flags are process-wide:
// one golangci-lint run has one pecanvet configuration.
package golangci

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/passes/pecan"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/report"
)

// Name is the plugin's name in golangci-lint's configuration.
const Name = "pecanvet"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings. Pointers tell an absent key from a
// zero value.
type Settings struct {
	Patterns   *string `json:"patterns"`
	Budget     *string `json:"budget"`
	Replay     *bool   `json:"replay"`
	MaxReplays *int    `json:"maxreplays"`
	Short      *bool   `json:"short"`
}

// known lists the settings' keys, for the unknown-key error.
var known = []string{"budget", "maxreplays", "patterns", "replay", "short"}

// Plugin is the registered plugin: its analyzer, configured.
type Plugin struct {
	analyzer *analysis.Analyzer
}

// New decodes and checks the settings and applies them to the analyzer's
// flags. Errors name the offending key, so that golangci-lint's
// "plugin(pecanvet): newPlugin …" says what to fix.
func New(conf any) (register.LinterPlugin, error) {
	if m, ok := conf.(map[string]any); ok {
		var unknown []string
		for k := range m {
			if !isKnown(k) {
				unknown = append(unknown, strconv.Quote(k))
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			return nil, fmt.Errorf("pecanvet: unknown setting %s (known: %s)", strings.Join(unknown, ", "), strings.Join(known, ", "))
		}
	}
	s, err := register.DecodeSettings[Settings](conf)
	if err != nil {
		// Settings that are not a map (or a key DecodeSettings rejects):
		// its error names the field.
		return nil, fmt.Errorf("pecanvet: settings: %w", err)
	}
	flags := &pecan.Analyzer.Flags // shared with pecan.ForReplay(false)
	if s.Patterns != nil {
		if _, err := pattern.Resolve(*s.Patterns); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"patterns\": %v", err)
		}
		if err := flags.Set("patterns", *s.Patterns); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"patterns\": %v", err)
		}
	}
	if s.Budget != nil {
		d, err := time.ParseDuration(*s.Budget)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("pecanvet: setting \"budget\": %q is not a positive duration such as 2m", *s.Budget)
		}
		if err := flags.Set("budget", d.String()); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"budget\": %v", err)
		}
	}
	if s.MaxReplays != nil {
		if *s.MaxReplays < 1 {
			return nil, fmt.Errorf("pecanvet: setting \"maxreplays\": %d, want 1 or more", *s.MaxReplays)
		}
		if err := flags.Set("maxreplays", strconv.Itoa(*s.MaxReplays)); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"maxreplays\": %v", err)
		}
	}
	if s.Short != nil {
		if err := flags.Set("short", strconv.FormatBool(*s.Short)); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"short\": %v", err)
		}
	}
	replay := true
	if s.Replay != nil {
		if err := flags.Set("replay", strconv.FormatBool(*s.Replay)); err != nil {
			return nil, fmt.Errorf("pecanvet: setting \"replay\": %v", err)
		}
		replay = *s.Replay
	}
	return &Plugin{analyzer: pecan.ForReplay(replay)}, nil
}

// isKnown reports whether k is a setting. golangci-lint reads its
// configuration through viper, which lowercases keys; so does this.
func isKnown(k string) bool {
	k = strings.ToLower(k)
	for _, n := range known {
		if k == n {
			return true
		}
	}
	return false
}

// BuildAnalyzers returns the configured analyzer — the dynamic one, or with
// replay: false the static one — reporting without related information.
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	return []*analysis.Analyzer{withoutRelated(p.analyzer)}, nil
}

// withoutRelated is a, reporting its diagnostics without their related
// information. golangci-lint turns each related entry into an issue of its
// own and moves entries from other files to the diagnostic's position,
// so the steps (one entry each, most in the test file) would come out as
// a dozen misplaced issues per finding. Instead each message ends with its
// finding's interleaving (report.Standalone); the steps themselves are
// what go vet, pecanvet lsp and SARIF show.
//
// It is named as the linter: golangci-lint prefixes the text of an
// analyzer named otherwise with the analyzer's name ("pecan: …").
func withoutRelated(a *analysis.Analyzer) *analysis.Analyzer {
	w := *a
	w.Name = Name
	w.Run = func(pass *analysis.Pass) (any, error) {
		var diags []analysis.Diagnostic
		p := *pass
		p.Report = func(d analysis.Diagnostic) { diags = append(diags, d) }
		res, err := a.Run(&p)
		var found []check.Finding
		if r, ok := res.(*pecan.Result); ok && r != nil && len(r.Reported) == len(diags) {
			found = r.Reported
		}
		for i, d := range diags {
			d.Related = nil
			if found != nil {
				d.Message = report.Standalone(d.Message, found[i])
			}
			pass.Report(d)
		}
		return res, err
	}
	return &w
}

// GetLoadMode asks for type information: the static analyzer builds SSA,
// and the dynamic one looks at types to tell concurrency from none.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
