package sarif_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/internal/jsonschema"
	"github.com/pecanvet/pecanvet/internal/sarif"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
	"github.com/pecanvet/pecanvet/report"
)

// Validate checks a SARIF log against the official 2.1.0 schema.
func Validate(t *testing.T, log []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(log); err != nil {
		t.Fatalf("not valid SARIF 2.1.0:\n%v", err)
	}
}

// repo makes a repository root holding a module in sub/ with account's
// source (a non-ASCII comment line shifts no column: columns are counted
// in code points after it).
func repo(t *testing.T, prefix string) (root, mod string) {
	root = t.TempDir()
	mod = filepath.Join(root, "sub")
	src, err := os.ReadFile("testdata/account/account.go")
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(mod, "account"), 0o755)
	if err := os.WriteFile(filepath.Join(mod, "account", "account.go"), append([]byte(prefix), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, mod
}

// lostUpdate is account's lost deposit (av/RWW), with its lines shifted
// by shift.
func lostUpdate(t *testing.T, shift int) check.Finding {
	pat := pattern.MustParse("av/RWW atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-w")[0]
	site := func(line, col int) string {
		if line == 0 {
			return ""
		}
		return "account/account.go:" + strconv.Itoa(line+shift) + ":" + strconv.Itoa(col)
	}
	step := func(g, op, obj string, line, col int) trace.Step {
		o, _ := trace.ParseOp(op)
		return trace.Step{G: g, Op: o, Obj: obj, Site: site(line, col), N: 1}
	}
	s := &trace.Schedule{Pattern: "av/RWW", Anomaly: []int{2, 6, 7}, Steps: []trace.Step{
		step("g1", "fork", "g1.1", 0, 0),
		step("g1", "lock", "Account.mu#1", 47, 11),
		step("g1", "read", "Account.balance#2", 53, 5),
		step("g1.1", "begin", "", 0, 0),
		step("g1.1", "lock", "Account.mu#2", 26, 11),
		step("g1.1", "read", "Account.balance#2", 28, 9),
		step("g1.1", "write", "Account.balance#2", 29, 4),
		step("g1", "write", "Account.balance#2", 53, 5),
	}}
	return check.Finding{
		Package: "subjects/account", Test: "TestTransferAndDeposit",
		Anomaly:    predict.Anomaly{Pattern: pat, Events: []int32{8, 14, 15}, Sites: []string{site(53, 5), site(29, 4), site(53, 5)}},
		Schedule:   s,
		Verdict:    replay.Verdict{Verdict: replay.Reproduced, Consequence: "test fails: account_test.go:29: bob = 150, want 180"},
		Goroutines: []string{"g1", "g1.1", "g1"},
		Objects:    []string{"Account.balance#2", "Account.balance#2", "Account.balance#2"},
	}
}

func encode(t *testing.T, l *sarif.Log) []byte {
	var buf bytes.Buffer
	if err := l.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestLog(t *testing.T) {
	root, mod := repo(t, "")
	f := lostUpdate(t, 0)
	pruned := lostUpdate(t, 0)
	pruned.Verdict = replay.Verdict{Verdict: "diverged"}
	custom := pattern.MustParse("mine/RR T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-r")
	pats, _ := pattern.Builtin("all")
	rep := &check.Report{Findings: []check.Finding{f, pruned}, Notes: []check.Note{{Kind: "no-tests", Package: "subjects/x", Text: "no tests to run"}}}
	log := sarif.New(rep, sarif.Options{ModuleRoot: mod, SrcRoot: root, Patterns: append(pats, custom...)})
	out := encode(t, log)
	Validate(t, out)

	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
		if r.Help == nil || r.Help.Text == "" || r.ShortDescription == nil {
			t.Errorf("rule %s without help", r.ID)
		}
	}
	// Each built-in deadlock pattern has a rule of its own (issue 29: a
	// lost signal is no lock-order inversion).
	const wantRules = "race,av,asv,chan,deadlock/lock-order,deadlock/rlock-writer,deadlock/once-run,deadlock/lost-signal,deadlock/double-lock,leak,sync/wg-add-after-wait,order,mine"
	if got := strings.Join(ids, ","); got != wantRules {
		t.Errorf("rules %s, want %s", got, wantRules)
	}
	names := map[string]bool{}
	for _, r := range run.Tool.Driver.Rules {
		if names[r.Name] {
			t.Errorf("two rules named %s", r.Name)
		}
		names[r.Name] = true
	}
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1 (the pruned prediction is no result)", len(run.Results))
	}
	r := run.Results[0]
	if r.RuleID != "av" || ids[r.RuleIndex] != "av" || r.Level != "error" {
		t.Errorf("rule %s index %d level %s", r.RuleID, r.RuleIndex, r.Level)
	}
	if r.Message.Text != report.Message(f) {
		t.Errorf("message %q is not the vet diagnostic's %q", r.Message.Text, report.Message(f))
	}
	loc := r.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "sub/account/account.go" || loc.ArtifactLocation.URIBaseID != "SRCROOT" || loc.Region.StartLine != 53 || loc.Region.StartColumn != 5 {
		t.Errorf("location %+v %+v, want SRCROOT sub/account/account.go:53:5 (the reporting site)", loc.ArtifactLocation, loc.Region)
	}
	if base := run.OriginalURIBaseIDs["SRCROOT"].URI; base != "file://"+filepath.ToSlash(root)+"/" {
		t.Errorf("SRCROOT is %s", base)
	}
	if len(r.RelatedLocations) != 1 || r.RelatedLocations[0].PhysicalLocation.Region.StartLine != 29 || !strings.Contains(r.RelatedLocations[0].Message.Text, "e2: g1.1 write") {
		t.Errorf("related locations %s, want the write at line 29 only", mustJSON(r.RelatedLocations))
	}
	if len(r.CodeFlows) != 1 || len(r.CodeFlows[0].ThreadFlows) != 1 {
		t.Fatalf("code flows %s", mustJSON(r.CodeFlows))
	}
	tf := r.CodeFlows[0].ThreadFlows[0]
	var steps []string
	last := 0
	for _, l := range tf.Locations {
		if l.ExecutionOrder <= last {
			t.Errorf("execution order %d after %d", l.ExecutionOrder, last)
		}
		last = l.ExecutionOrder
		steps = append(steps, l.Location.Message.Text+"@"+strconv.Itoa(l.Location.PhysicalLocation.Region.StartLine)+"/"+l.Importance)
	}
	want := "step 2: g1 lock Account.mu#1@47/important|step 3: g1 read Account.balance#2 (e1)@53/essential|step 5: g1.1 lock Account.mu#2@26/important|" +
		"step 6: g1.1 read Account.balance#2@28/important|step 7: g1.1 write Account.balance#2 (e2)@29/essential|step 8: g1 write Account.balance#2 (e3)@53/essential"
	if got := strings.Join(steps, "|"); got != want {
		t.Errorf("thread flow:\n got %s\nwant %s", got, want)
	}
	if n := run.Invocations[0].ToolExecutionNotifications; len(n) != 1 || n[0].Message.Text != rep.Notes[0].String() {
		t.Errorf("notifications %s", mustJSON(n))
	}

	// Same input, same output.
	if again := encode(t, sarif.New(rep, sarif.Options{ModuleRoot: mod, SrcRoot: root, Patterns: append(pats, custom...)})); !bytes.Equal(again, out) {
		t.Error("two logs of one report differ")
	}
}

// TestFingerprint: lines added above the finding move its region but not
// its fingerprint; another finding has another.
func TestFingerprint(t *testing.T) {
	fp := func(prefix string, shift int, mutate func(*check.Finding)) (string, int, int) {
		root, mod := repo(t, prefix)
		f := lostUpdate(t, shift)
		if mutate != nil {
			mutate(&f)
		}
		r := sarif.New(&check.Report{Findings: []check.Finding{f}}, sarif.Options{ModuleRoot: mod, SrcRoot: root}).Runs[0].Results[0]
		reg := r.Locations[0].PhysicalLocation.Region
		return r.PartialFingerprints[sarif.FingerprintKey], reg.StartLine, reg.StartColumn
	}
	a, line, _ := fp("", 0, nil)
	b, line2, col2 := fp("// Grüße — two lines of comment\n// added above\n", 2, nil)
	if a == "" || a != b || line2 != line+2 || col2 != 5 {
		t.Errorf("fingerprints %s and %s (lines %d, %d; column %d): want equal, the region moved by 2, column 5", a, b, line, line2, col2)
	}
	c, _, _ := fp("", 0, func(f *check.Finding) { f.Anomaly.Sites[1] = "account/account.go:28:9" })
	if c == a {
		t.Error("a finding with another site has the same fingerprint")
	}
}

// TestColumnsInCodePoints: Go's byte columns become code points.
func TestColumnsInCodePoints(t *testing.T) {
	root, mod := repo(t, "")
	p := filepath.Join(mod, "account", "account.go")
	b, _ := os.ReadFile(p)
	lines := strings.Split(string(b), "\n")
	lines[52] = "\t/*é*/" + strings.TrimLeft(lines[52], "\t") // line 53: the write now starts at byte column 11
	os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644)
	f := lostUpdate(t, 0)
	f.Anomaly.Sites = []string{"account/account.go:53:11", "account/account.go:29:4", "account/account.go:53:11"}
	r := sarif.New(&check.Report{Findings: []check.Finding{f}}, sarif.Options{ModuleRoot: mod, SrcRoot: root}).Runs[0].Results[0]
	if col := r.Locations[0].PhysicalLocation.Region.StartColumn; col != 10 {
		t.Errorf("column %d, want 10 (é is two bytes, one code point)", col)
	}
}

// TestOutsideSrcRoot: a file outside %SRCROOT% gets an absolute file URI.
func TestOutsideSrcRoot(t *testing.T) {
	_, mod := repo(t, "")
	other := t.TempDir()
	r := sarif.New(&check.Report{Findings: []check.Finding{lostUpdate(t, 0)}}, sarif.Options{ModuleRoot: mod, SrcRoot: other}).Runs[0].Results[0]
	al := r.Locations[0].PhysicalLocation.ArtifactLocation
	if al.URIBaseID != "" || !strings.HasPrefix(al.URI, "file:///") || !strings.HasSuffix(al.URI, "/sub/account/account.go") {
		t.Errorf("artifact location %+v", al)
	}
}

// TestWriteFile: the file appears whole or not at all; a failed write
// leaves neither it nor a temporary file.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	log := sarif.New(&check.Report{}, sarif.Options{ModuleRoot: dir})
	p := filepath.Join(dir, "out.sarif")
	if err := log.WriteFile(p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	Validate(t, b)
	if err := log.WriteFile(filepath.Join(dir, "missing", "out.sarif")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
	// A directory in the way: the rename fails after the write.
	os.Mkdir(filepath.Join(dir, "busy.sarif"), 0o755)
	os.WriteFile(filepath.Join(dir, "busy.sarif", "x"), nil, 0o644)
	if err := log.WriteFile(filepath.Join(dir, "busy.sarif")); err == nil {
		t.Error("renaming over a non-empty directory succeeded")
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "busy.sarif out.sarif" {
		t.Errorf("directory holds %s, want busy.sarif out.sarif (no temporary file left)", got)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRuleIDPerDeadlockPattern: a built-in deadlock (or sync) pattern's
// rule is its own, a user-defined pattern of kind deadlock falls back to the kind.
func TestRuleIDPerDeadlockPattern(t *testing.T) {
	pats, _ := pattern.Builtin("deadlock")
	wg, _ := pattern.Builtin("sync")
	pats = append(pats, wg...)
	seen := map[string]bool{}
	for _, p := range pats {
		id := sarif.RuleID(p)
		if p.ID() == "deadlock/double-lock-stale" {
			// The double lock from a stale read shares its rule.
			if id != "deadlock/double-lock" {
				t.Errorf("%s: rule %s, want deadlock/double-lock", p.ID(), id)
			}
			continue
		}
		if p.ID() == "deadlock/lock-order-stale" {
			// The inversion down a stale read's path shares the
			// lock-order rule.
			if id != "deadlock/lock-order" {
				t.Errorf("%s: rule %s, want deadlock/lock-order", p.ID(), id)
			}
			continue
		}
		if id != p.ID() || seen[id] {
			t.Errorf("%s: rule %s, want its own", p.ID(), id)
		}
		seen[id] = true
	}
	custom := pattern.MustParse("deadlock/mine lock T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-w-w-w")
	if id := sarif.RuleID(custom[0]); id != "deadlock" {
		t.Errorf("custom deadlock pattern: rule %s, want deadlock", id)
	}
}

// TestGrouped: of a bug's findings (check's group), the lead alone is a
// result; its message, the vet diagnostic's, says how many more
// interleavings -v shows, and its "grouped" property counts them, and
// the finding it leads is no result of its own.
func TestGrouped(t *testing.T) {
	root, mod := repo(t, "")
	lead, member := lostUpdate(t, 0), lostUpdate(t, 0)
	lead.Grouped = 1
	member.Lead = lead.Anomaly.Sites[0]
	member.Anomaly.Sites = []string{member.Anomaly.Sites[0], "account/account.go:28:9", member.Anomaly.Sites[2]}
	rep := &check.Report{Findings: []check.Finding{member, lead}}
	log := sarif.New(rep, sarif.Options{ModuleRoot: mod, SrcRoot: root})
	Validate(t, encode(t, log))
	rs := log.Runs[0].Results
	if len(rs) != 1 {
		t.Fatalf("%d results, want 1 (the lead)", len(rs))
	}
	if rs[0].Message.Text != report.Message(lead) || !strings.HasSuffix(rs[0].Message.Text, "(and other interleavings of this bug, shown with -v)") {
		t.Errorf("message %q, want the lead's diagnostic, with its count", rs[0].Message.Text)
	}
	if g, ok := rs[0].Properties["grouped"]; !ok || g != 1 {
		t.Errorf("grouped property %v, want 1", rs[0].Properties["grouped"])
	}
}
