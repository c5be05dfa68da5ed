package golangci_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/pecanvet/pecanvet/golangci"
	"github.com/pecanvet/pecanvet/passes/pecan"
)

// analyzers gets the plugin the way golangci-lint does: by name from the
// registry, with raw settings, then BuildAnalyzers.
func analyzers(t *testing.T, settings any) ([]*analysis.Analyzer, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin(golangci.Name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(settings)
	if err != nil {
		return nil, err
	}
	if m := p.GetLoadMode(); m != register.LoadModeTypesInfo {
		t.Errorf("load mode %q, want %q", m, register.LoadModeTypesInfo)
	}
	return p.BuildAnalyzers()
}

// sameAnalyzer reports whether the plugin's analyzer a wraps b: the same
// requirements, so the same analysis.
func sameAnalyzer(a, b *analysis.Analyzer) bool {
	if a.Doc != b.Doc || len(a.Requires) != len(b.Requires) {
		return false
	}
	for i := range a.Requires {
		if a.Requires[i] != b.Requires[i] {
			return false
		}
	}
	return true
}

// restoreFlags puts the analyzer's process-wide flags back after a test
// that configures the plugin.
func restoreFlags(t *testing.T) {
	saved := map[string]string{}
	for _, n := range []string{"patterns", "budget", "replay", "maxreplays", "short"} {
		saved[n] = pecan.Analyzer.Flags.Lookup(n).Value.String()
	}
	t.Cleanup(func() {
		for n, v := range saved {
			pecan.Analyzer.Flags.Set(n, v)
		}
	})
}

// TestStatic: replay: false is the static mode (no build, no run): the
// unlocked counter gets unconfirmed candidates, its fixed twin none.
func TestStatic(t *testing.T) {
	restoreFlags(t)
	as, err := analyzers(t, map[string]any{"replay": false, "patterns": "race"})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || !sameAnalyzer(as[0], pecan.ForReplay(false)) {
		t.Fatalf("analyzers %v, want the static one", as)
	}
	dir, _ := filepath.Abs("testdata/src")
	// The candidates' number and order are the static analysis's business;
	// what matters here is where they are. So collect analysistest's
	// complaints (every diagnostic is unexpected: no // want lines).
	var got collector
	analysistest.Run(&got, dir, as[0], "./counter", "./counterfixed")
	onHit := false
	for _, m := range got {
		switch {
		case strings.Contains(m, "counterfixed"):
			t.Errorf("fixed twin: %s", m)
		case !strings.Contains(m, "possible data race (race/"):
			t.Errorf("not a race candidate (patterns: race): %s", m)
		case strings.Contains(m, "counter/counter.go:9:"):
			onHit = true
		}
	}
	if !onHit {
		t.Errorf("no candidate at Hit's c.n++ (counter.go:9); got %q", got)
	}
}

// collector is an analysistest.Testing that keeps what it is told.
type collector []string

func (c *collector) Errorf(format string, args ...any) {
	*c = append(*c, fmt.Sprintf(format, args...))
}

// TestDynamic: by default the plugin runs the vet tool's analyzer, replay
// included, with the settings applied: a small subject's race is
// reported, its fixed twin gets nothing.
func TestDynamic(t *testing.T) {
	if testing.Short() {
		t.Skip("records and replays")
	}
	restoreFlags(t)
	as, err := analyzers(t, map[string]any{"budget": "2m", "maxreplays": 20, "patterns": "all"})
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 1 || !sameAnalyzer(as[0], pecan.Analyzer) {
		t.Fatalf("analyzers %v, want the dynamic one", as)
	}
	if got := pecan.Analyzer.Flags.Lookup("budget").Value.String(); got != "2m0s" {
		t.Errorf("budget flag %s after budget: 2m", got)
	}
	if got := pecan.Analyzer.Flags.Lookup("maxreplays").Value.String(); got != "20" {
		t.Errorf("maxreplays flag %s after maxreplays: 20", got)
	}
	dir, _ := filepath.Abs("testdata/subjects")
	n := 0
	for _, r := range analysistest.Run(t, dir, as[0], "./doubleclose", "./doubleclosefixed") {
		for _, d := range r.Diagnostics {
			n++
			// golangci-lint would make each related entry an issue.
			if len(d.Related) > 0 || !strings.Contains(d.Message, " → ") {
				t.Errorf("diagnostic %q with %d related entries; want the interleaving in the message and none", d.Message, len(d.Related))
			}
		}
	}
	if n == 0 {
		t.Error("no diagnostics")
	}
}

// TestShortSetting: short: true is the vet tool's -pecan.short.
func TestShortSetting(t *testing.T) {
	restoreFlags(t)
	if _, err := analyzers(t, map[string]any{"short": true, "replay": false}); err != nil {
		t.Fatal(err)
	}
	if got := pecan.Analyzer.Flags.Lookup("short").Value.String(); got != "true" {
		t.Errorf("short flag %s after short: true", got)
	}
}

// TestBadSettings: each bad setting is an error naming its key.
func TestBadSettings(t *testing.T) {
	restoreFlags(t)
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"replays": false}, `unknown setting "replays"`},
		{map[string]any{"budget": "2m", "Pattern": "race"}, `unknown setting "Pattern"`},
		{map[string]any{"budget": "soon"}, `"budget"`},
		{map[string]any{"budget": 5}, `budget`},
		{map[string]any{"maxreplays": 0}, `"maxreplays"`},
		{map[string]any{"patterns": "nosuchset"}, `"patterns"`},
		{map[string]any{"replay": "no"}, `replay`},
		{map[string]any{"short": "yes"}, `short`},
		{[]any{"replay"}, `settings`},
	} {
		_, err := analyzers(t, tc.settings)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("settings %v: error %v, want one containing %s", tc.settings, err, tc.want)
		}
	}
	// No settings at all (golangci-lint passes nil) is the default.
	if as, err := analyzers(t, nil); err != nil || !sameAnalyzer(as[0], pecan.Analyzer) {
		t.Errorf("nil settings: %v, %v", as, err)
	}
}

// TestVSCodeLintToolDoc checks the VS Code settings docs/golangci-lint.md
// gives: the Go extension's golangci-lint-v2 lint tool, pointed at the
// custom binary.
func TestVSCodeLintToolDoc(t *testing.T) {
	b, err := os.ReadFile(golangciDoc)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(b, -1) {
		var s struct {
			LintTool       string            `json:"go.lintTool"`
			AlternateTools map[string]string `json:"go.alternateTools"`
		}
		if !bytes.Contains(m[1], []byte("go.lintTool")) {
			continue
		}
		found = true
		if err := json.Unmarshal(m[1], &s); err != nil {
			t.Fatalf("VS Code settings: %v\n%s", err, m[1])
		}
		if s.LintTool != "golangci-lint-v2" || !strings.HasSuffix(s.AlternateTools["golangci-lint-v2"], "/bin/golangci-lint") {
			t.Errorf("VS Code settings %+v: want go.lintTool golangci-lint-v2, and go.alternateTools naming bin/golangci-lint for it", s)
		}
	}
	if !found {
		t.Errorf("%s has no VS Code settings with go.lintTool", golangciDoc)
	}
}

// TestGolangciLintConfigDoc checks the .golangci.yml of
// docs/golangci-lint.md without golangci-lint: it enables pecanvet as a
// module plugin, keeps every issue (uniq-by-line, max-same-issues), and
// its settings configure the plugin. TestGolangciLintBinary runs it.
func TestGolangciLintConfigDoc(t *testing.T) {
	restoreFlags(t)
	cfg := docConfig(t)
	for _, want := range []string{"version: \"2\"", "\n    - pecanvet\n", "\n      pecanvet:\n        type: module\n", "uniq-by-line: false", "max-same-issues: 0"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("configuration lacks %q:\n%s", want, cfg)
		}
	}
	// The plugin's settings: the lines under "settings:", two spaces
	// deeper than it, without comments.
	settings := map[string]any{}
	m := regexp.MustCompile(`(?m)^( *)settings:\n`).FindAllStringSubmatchIndex(cfg, -1)
	if len(m) < 2 {
		t.Fatalf("no plugin settings block:\n%s", cfg)
	}
	last := m[len(m)-1]
	indent, body := cfg[last[2]:last[3]]+"  ", cfg[last[1]:]
	for _, l := range strings.Split(body, "\n") {
		if !strings.HasPrefix(l, indent) || strings.HasPrefix(l, indent+" ") {
			if strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				break
			}
			continue
		}
		l, _, _ = strings.Cut(l, "#")
		k, v, ok := strings.Cut(strings.TrimSpace(l), ":")
		if !ok {
			continue
		}
		settings[k] = strings.TrimSpace(v)
	}
	if len(settings) == 0 {
		t.Fatalf("no settings under the plugin's settings:\n%s", cfg)
	}
	if _, err := analyzers(t, settings); err != nil {
		t.Errorf("settings %v: %v", settings, err)
	}
}
