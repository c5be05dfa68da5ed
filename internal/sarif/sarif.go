// Package sarif writes pecanvet check's reproduced findings as SARIF 2.1.0,
// the format code scanning (GitHub's among others) reads.
//
// The log has one rule per anomaly kind, and one result per reproduced
// finding: at the site of the vet diagnostic, worded as it (package
// report), with the anomaly's other sites as related locations and the
// replayed steps as a code flow — one thread flow in global interleaving
// order, each step with its execution order, goroutine and operation.
// URIs are relative to %SRCROOT% (by default the repository root), and
// each result has a partial fingerprint that survives edits of unrelated
// code.
//
// It reads check's report; only cmd/pecanvet imports it.
package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/pecanvet/pecanvet/check"
	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/passes/pecan"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/report"
)

// SchemaURI is the SARIF 2.1.0 schema a log names.
const SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

// SrcRoot is the uriBaseId relative URIs are resolved against.
const SrcRoot = "SRCROOT"

// FingerprintKey names the partial fingerprint of a result.
const FingerprintKey = "pecanvetFinding/v1"

// Log is a SARIF log (only the properties pecanvet fills in).
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of the tool.
type Run struct {
	Tool               Tool                        `json:"tool"`
	Invocations        []Invocation                `json:"invocations,omitempty"`
	OriginalURIBaseIDs map[string]ArtifactLocation `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind,omitempty"`
	Results            []Result                    `json:"results"`
}

type Tool struct {
	Driver Driver `json:"driver"`
}

type Driver struct {
	Name           string `json:"name"`
	InformationURI string `json:"informationUri,omitempty"`
	Version        string `json:"version,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule describes one anomaly kind.
type Rule struct {
	ID                   string         `json:"id"`
	Name                 string         `json:"name"`
	ShortDescription     *Message       `json:"shortDescription"`
	FullDescription      *Message       `json:"fullDescription"`
	Help                 *Message       `json:"help"`
	HelpURI              string         `json:"helpUri,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
	Properties           map[string]any `json:"properties,omitempty"`
}

type Configuration struct {
	Level string `json:"level"`
}

type Message struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type Invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []Notification `json:"toolExecutionNotifications,omitempty"`
}

type Notification struct {
	Level   string  `json:"level"`
	Message Message `json:"message"`
}

// Result is one reproduced finding.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	RelatedLocations    []Location        `json:"relatedLocations,omitempty"`
	CodeFlows           []CodeFlow        `json:"codeFlows"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          map[string]any    `json:"properties,omitempty"`
}

type Location struct {
	ID               *int              `json:"id,omitempty"`
	PhysicalLocation *PhysicalLocation `json:"physicalLocation,omitempty"`
	Message          *Message          `json:"message,omitempty"`
}

type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

type ArtifactLocation struct {
	URI         string   `json:"uri,omitempty"`
	URIBaseID   string   `json:"uriBaseId,omitempty"`
	Description *Message `json:"description,omitempty"`
}

type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

type CodeFlow struct {
	Message     *Message     `json:"message,omitempty"`
	ThreadFlows []ThreadFlow `json:"threadFlows"`
}

type ThreadFlow struct {
	Message   *Message             `json:"message,omitempty"`
	Locations []ThreadFlowLocation `json:"locations"`
}

type ThreadFlowLocation struct {
	Location       Location       `json:"location"`
	ExecutionOrder int            `json:"executionOrder"`
	Importance     string         `json:"importance"`
	Kinds          []string       `json:"kinds,omitempty"`
	Properties     map[string]any `json:"properties,omitempty"`
}

// Options say where the findings' files are.
type Options struct {
	// ModuleRoot is the directory of the checked module: findings' sites
	// are relative to it.
	ModuleRoot string
	// SrcRoot is the directory URIs are relative to (%SRCROOT%); default
	// ModuleRoot. For code scanning, the repository root.
	SrcRoot string
	// Patterns are the patterns the check used: every kind among them
	// gets a rule, found or not.
	Patterns []*pattern.Pattern
	Version  string // the tool's version, if known
}

// New builds the log of a check's reproduced findings.
func New(rep *check.Report, opt Options) *Log {
	if opt.SrcRoot == "" {
		opt.SrcRoot = opt.ModuleRoot
	}
	w := &writer{opt: opt, lines: map[string][]string{}}
	rules := rulesFor(opt.Patterns, rep.Findings)
	index := map[string]int{}
	for i, r := range rules {
		index[r.ID] = i
	}
	run := Run{
		Tool: Tool{Driver: Driver{Name: "pecanvet", InformationURI: pecan.Analyzer.URL, Version: opt.Version, Rules: rules}},
		OriginalURIBaseIDs: map[string]ArtifactLocation{SrcRoot: {
			URI:         fileURI(opt.SrcRoot, true),
			Description: &Message{Text: "The root the results' relative URIs are resolved against (the repository root)."},
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    []Result{},
	}
	inv := Invocation{ExecutionSuccessful: true}
	for _, n := range rep.Notes {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, Notification{Level: "note", Message: Message{Text: n.String()}})
	}
	run.Invocations = []Invocation{inv}
	for _, f := range rep.Reported() {
		id := RuleID(f.Anomaly.Pattern)
		run.Results = append(run.Results, w.result(f, id, index[id]))
	}
	return &Log{Schema: SchemaURI, Version: "2.1.0", Runs: []Run{run}}
}

// RuleID is the rule of a pattern: its kind, "chan" for the channel
// patterns (their kind is race, as in the race detector's model), or its
// ID for a pattern with a rule of its own (the built-in deadlock ones).
func RuleID(p *pattern.Pattern) string {
	if p.Chan {
		return "chan"
	}
	if _, ok := builtinRules[p.ID()]; ok {
		return p.ID()
	}
	if p.Relock && p.Lock && p.Kind == "deadlock" {
		return "deadlock/lock-order" // an inversion down a stale read's path
	}
	if p.Relock && p.Kind == "deadlock" {
		return "deadlock/double-lock" // either order of the write and the read
	}
	return p.Kind
}

// builtinOrder is the order of the built-in rules in a log.
var builtinOrder = []string{"race", "av", "asv", "chan",
	"deadlock/lock-order", "deadlock/rlock-writer", "deadlock/once-run", "deadlock/lost-signal", "deadlock/double-lock", "deadlock/hung", "deadlock", "leak", "leak/observed", "sync/wg-add-after-wait", "order"}

type ruleText struct{ name, short, full, help string }

var builtinRules = map[string]ruleText{
	"race": {"DataRace", "Data race",
		"Two goroutines access one memory location, at least one of them writes, and no synchronization orders the accesses: pecanvet replayed a schedule in which they run back to back.",
		"A data race: two goroutines access the same variable or field, at least one writes, and nothing (a mutex both hold, a channel operation, a WaitGroup, sync/atomic) orders the two accesses. pecanvet predicted it from a recorded run of the test and replayed the schedule that runs the two accesses back to back; the code flow is that schedule, step by step. Fix: guard every access to the location with the same mutex, make it atomic, or hand the value over a channel."},
	"av": {"AtomicityViolation", "Atomicity violation",
		"Another goroutine's access to a location falls between two accesses one unit of work (a function, a critical section) makes to it, as in a lost update or a stale check-then-act.",
		"An atomicity violation: a unit of work (a function or critical section) accesses a location twice, assuming nothing changes in between, and another goroutine's access falls between the two — a lost update, or a check whose result is stale when it is acted on. Locks on each access alone do not prevent it (go test -race cannot see it when every access holds a lock). pecanvet replayed the schedule that interleaves the three accesses; the code flow shows it. Fix: make the whole read-modify-write or check-then-act one critical section."},
	"asv": {"AtomicSetSerializabilityViolation", "Atomic-set-serializability violation",
		"Two related locations (an atomic set) are updated by one unit of work while another goroutine's unit of work accesses them in between, so the two units are not serializable.",
		"An atomic-set-serializability violation: locations that must stay consistent with each other (an atomic set, e.g. a slice and its length counter) are accessed by two units of work whose interleaving matches no serial order (one of the problematic access patterns of Vaziri et al.). pecanvet replayed the schedule; the code flow shows it. Fix: access the whole set under one lock per unit of work."},
	"chan": {"ChannelRace", "Send on a closed channel, or double close",
		"A send on a channel another goroutine closes, or two closes of one channel, can run in this order: the program panics.",
		"A channel race: a send on a channel that another goroutine may close first (panic: send on closed channel), or two goroutines that both close a channel (panic: close of closed channel). pecanvet replayed the schedule that puts the close first; the code flow shows it. Fix: let only the sender close the channel, once, after its last send (sync.Once, or a single owner)."},
	// Each built-in deadlock pattern has its own rule (its ID): their
	// causes and fixes differ, and code scanning groups and suppresses
	// alerts by rule. "deadlock" stays for user-defined deadlock patterns.
	"deadlock/lock-order": {"LockOrderInversion", "Lock-order inversion",
		"Two goroutines take two locks in opposite orders, with no lock held by both around them and nothing ordering the two: a schedule deadlocks them.",
		"A lock-order inversion: one goroutine takes lock A, then B, another B, then A, with no lock held by both around them and nothing ordering the two. pecanvet predicted it from a recorded run of the test and replayed the schedule in which each holds its first lock and waits for the other's: the replay deadlocked there. The code flow is that schedule. Fix: take the locks in one global order, or one at a time."},
	"deadlock/rlock-writer": {"RecursiveReadLock", "Recursive read lock behind a writer",
		"A goroutine holding an RWMutex's read lock asks for it again while another goroutine waits to write: neither goes on.",
		"A recursive read lock: a goroutine holding an RWMutex's read lock asks for it again while another goroutine waits in Lock. The writer waits for the first read lock; the second read lock queues behind the waiting writer (sync.RWMutex keeps new readers out while a writer waits). pecanvet predicted it from a recorded run of the test and replayed the schedule: the replay deadlocked with both goroutines in their lock calls. The code flow is that schedule. Fix: never take a read lock twice in one goroutine; pass the locked state down instead."},
	"deadlock/once-run": {"OnceDeadlock", "Deadlock through sync.Once",
		"A goroutine holding a lock calls Once.Do while another call of Do on the same Once runs a function that waits for that lock: neither goes on.",
		"A deadlock through sync.Once: Once.Do makes every caller wait until the call running the function returns, so a Once is a lock held while its function runs. A goroutine holds a lock and calls Do, while another goroutine's call of Do on the same Once runs a function that takes that lock. In the recorded run the second call found the function already run; a function run at the same call of Do took the lock, so its own would. pecanvet replayed the schedule in which that call gets into Do first: the replay deadlocked with the function waiting for the lock and the first goroutine waiting in Do. The code flow is that schedule. Fix: do not call Do while holding a lock the function takes, or take that lock before Do on every path."},
	"deadlock/lost-signal": {"LostSignal", "Lost Cond signal",
		"A Cond's Signal or Broadcast can run before the Wait it was meant to wake, which then waits forever.",
		"A lost signal: a sync.Cond's Signal or Broadcast wakes only goroutines already waiting, and a schedule runs it before the Wait it was meant to wake, which then waits forever. pecanvet predicted it from a recorded run of the test and replayed the schedule: the waiter stayed blocked in Cond.Wait once nothing else could move. The code flow is that schedule. Fix: wait in a loop over the condition the signal announces, checked under the Cond's lock, and set the condition before signalling."},
	"deadlock/double-lock": {"DoubleLock", "Double lock by schedule",
		"Another goroutine's write can send a goroutine down a branch that locks a mutex it already holds: the lock never returns.",
		"A double lock that one schedule takes: a goroutine holding a mutex reads a variable whose value decides a branch that locks the same mutex again (a Lock behind its own Lock or RLock, an RLock behind its own Lock; sync's locks are not reentrant). The recorded run read the old value and went the other way. pecanvet predicted the schedule in which another goroutine's write comes first, and replayed it: the goroutine took the branch and stayed blocked in that lock once nothing else could move. The code flow is that schedule. Fix: do not call code that takes the lock while holding it (a locked variant of the callee), or release the lock before the branch."},
	"deadlock": {"Deadlock", "Deadlock",
		"Goroutines can block each other forever in a schedule a user-defined deadlock pattern describes.",
		"A deadlock that a schedule reaches, matched by a user-defined pattern of kind deadlock. pecanvet predicted it from a recorded run of the test and replayed the schedule: the replay deadlocked, with the goroutines blocked where the message says. The code flow is that schedule."},
	"deadlock/hung": {"ObservedHang", "Hang (observed)",
		"A recorded run of the test hung for good: every goroutine waited for another one, the test's in the operation the message names.",
		"A hang that a recorded run of the test showed (the first run, or one under a perturbed schedule): every goroutine was blocked in a channel operation, lock or wait that only another goroutine could end, none running, sleeping or waiting for a timer or I/O, so go test would wait out its timeout there. pecanvet replayed the recorded order up to the operation the test's goroutine hung in: the process hung again with it blocked there. The code flow is that schedule. Fix: make the wait end in every order (a select on the context or the work's completion, or close the channel on every path)."},
	"leak/observed": {"ObservedGoroutineLeak", "Goroutine leak (observed)",
		"The test's run ended with a goroutine it started blocked forever in a channel operation that nothing live can complete.",
		"A goroutine leak that the recorded run itself showed (what goleak reports): when the test returned, a goroutine it started was blocked in a send or receive on a channel made by the function that started it, which used the channel only in a select whose other branch (a timeout, ctx.Done(), default) it took. No other goroutine holds the channel, so the operation never completes. A daemon waiting on a channel that a package-level variable or a long-lived value keeps reachable is not reported. pecanvet replayed the recorded order: the test returned with the goroutine blocked there. The code flow is that schedule. Fix: give the channel a buffer of one, or let the goroutine select on the same cancellation."},
	"sync/wg-add-after-wait": {"WaitGroupAddAfterWait", "WaitGroup.Add after Wait",
		"A WaitGroup's Add from 0 can run after a Wait it was meant to hold: the Wait returns at once and does not wait for that work.",
		"A WaitGroup.Add after Wait: an Add that raises a WaitGroup's counter from 0 must happen before Wait (package sync), and nothing orders this one before it: typically the Add is inside the goroutine it counts. pecanvet predicted from a recorded run of the test the schedule that runs the Wait first, and replayed it: the Wait returned before the Add ran, so the waiter went on while the work was still to come. The code flow is that schedule. Fix: call Add before the go statement that starts the work (or use WaitGroup.Go)."},
	"order": {"OrderViolation", "Order violation",
		"Another goroutine's critical section of the same lock can run before one that ran first, and the package's code then panics.",
		"An order violation between two critical sections of one lock: every access holds the lock, so there is no data race (go test -race cannot see it), but nothing other than the lock orders the two sections, and in the other serial order the package's code panics (a nil dereference, a second close of a channel). pecanvet predicted from a recorded run of the test the schedule that runs the later section whole before the earlier one, and replayed it: the package's code (not the test's) panicked. The code flow is that schedule. Fix: make the later section check the state the earlier one assumes (a closed flag set under the lock), or order the two explicitly."},
	"leak": {"GoroutineLeak", "Goroutine leak",
		"A select can take another branch (a timeout, ctx.Done(), default) and leave its partner's channel operation blocked forever.",
		"A goroutine leak: two goroutines meet on an unbuffered channel, one of them in a select that has another branch. pecanvet predicted from a recorded run of the test the schedule in which the select takes that branch first, and replayed it: when the test returned, the partner's goroutine was blocked forever in its channel operation, and no goroutine left could reach the channel. The code flow is that schedule. Fix: give the channel a buffer of one, or let the partner select on the same cancellation."},
}

// rulesFor makes one rule per kind among the patterns and the findings:
// the built-in kinds first, then the custom ones by name.
func rulesFor(pats []*pattern.Pattern, found []check.Finding) []Rule {
	byKind := map[string][]string{} // custom kind → its patterns
	kinds := map[string]bool{}
	add := func(p *pattern.Pattern) {
		id := RuleID(p)
		kinds[id] = true
		if _, ok := builtinRules[id]; !ok && !contains(byKind[id], p.ID()) {
			byKind[id] = append(byKind[id], p.ID())
		}
	}
	for _, p := range pats {
		add(p)
	}
	for _, f := range found {
		add(f.Anomaly.Pattern)
	}
	var ids []string
	for _, id := range builtinOrder {
		if kinds[id] {
			ids = append(ids, id)
		}
	}
	var custom []string
	for id := range kinds {
		if _, ok := builtinRules[id]; !ok {
			custom = append(custom, id)
		}
	}
	sort.Strings(custom)
	ids = append(ids, custom...)
	rules := make([]Rule, 0, len(ids))
	for _, id := range ids {
		t, ok := builtinRules[id]
		if !ok {
			ps := byKind[id]
			sort.Strings(ps)
			name := pattern.KindName(id)
			t = ruleText{id, name,
				fmt.Sprintf("A %s: the events of a user-defined pattern (%s) ran in the pattern's order in a replayed schedule.", name, strings.Join(ps, ", ")),
				fmt.Sprintf("A %s: a match of the user-defined pattern(s) %s given with -patterns. pecanvet replayed a schedule in which the pattern's events run in its order, on the same objects; the code flow is that schedule.", name, strings.Join(ps, ", "))}
		}
		rules = append(rules, Rule{
			ID: id, Name: t.name,
			ShortDescription:     &Message{Text: t.short},
			FullDescription:      &Message{Text: t.full},
			Help:                 &Message{Text: t.help, Markdown: t.help},
			HelpURI:              pecan.Analyzer.URL,
			DefaultConfiguration: &Configuration{Level: "warning"},
			Properties:           map[string]any{"tags": []string{"concurrency", "reproduced"}, "precision": "very-high"},
		})
	}
	return rules
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

type writer struct {
	opt   Options
	lines map[string][]string // absolute path → its lines, nil if unreadable
}

func (w *writer) result(f check.Finding, ruleID string, ruleIndex int) Result {
	a := f.Anomaly
	rs := report.Site(f)
	level := "warning"
	if f.Verdict.Consequence != "" {
		level = "error" // replay made the test fail or panic
	}
	r := Result{
		RuleID: ruleID, RuleIndex: ruleIndex, Level: level,
		Message:             Message{Text: report.Message(f)},
		Locations:           []Location{w.location(rs, nil)},
		PartialFingerprints: map[string]string{FingerprintKey: w.fingerprint(f, ruleID)},
		Properties: map[string]any{
			"pattern": a.Pattern.ID(), "package": f.Package, "test": f.Test, "goroutines": f.Goroutines,
		},
	}
	if c := f.Verdict.Consequence; c != "" {
		r.Properties["consequence"] = c
	}
	if f.Grouped > 0 {
		// The other interleavings of its bug, not results of their own
		// (check.Finding.Lead): the message says how many too.
		r.Properties["grouped"] = f.Grouped
	}
	// The anomaly's other sites, each once, named by its events.
	seen := map[trace.Site]bool{rs: true}
	for k, e := range report.Events(f) {
		site, err := trace.ParseSite(a.Sites[k])
		if err != nil || seen[site] {
			continue
		}
		seen[site] = true
		id := len(r.RelatedLocations) + 1
		r.RelatedLocations = append(r.RelatedLocations, w.location(site, &Message{Text: fmt.Sprintf("e%d: %s", e.Event, e.Action())}))
		r.RelatedLocations[len(r.RelatedLocations)-1].ID = &id
	}
	// The replayed schedule, as the diagnostic's related information shows
	// it (report.Steps), one thread flow in global order.
	tf := ThreadFlow{Message: &Message{Text: fmt.Sprintf("the schedule replay ran: %d steps of %s in %s", len(f.Schedule.Steps), f.Test, f.Package)}}
	for _, st := range report.Steps(f) {
		imp := "important"
		if st.Event > 0 {
			imp = "essential"
		}
		tf.Locations = append(tf.Locations, ThreadFlowLocation{
			Location:       w.location(st.Site, &Message{Text: st.String()}),
			ExecutionOrder: st.N,
			Importance:     imp,
			Kinds:          opKinds(st.Op),
			Properties:     map[string]any{"goroutine": st.G},
		})
	}
	r.CodeFlows = []CodeFlow{{
		Message:     &Message{Text: report.Interleaving(f)},
		ThreadFlows: []ThreadFlow{tf},
	}}
	return r
}

// opKinds are SARIF's well-known thread flow location kinds for an op.
func opKinds(op trace.Op) []string {
	switch op {
	case trace.Lock, trace.RLock:
		return []string{"acquire", "lock"}
	case trace.Unlock, trace.RUnlock:
		return []string{"release", "lock"}
	case trace.Read, trace.Write, trace.AtomicLoad, trace.AtomicStore, trace.AtomicRMW:
		return []string{"memory"}
	}
	return nil
}

func (w *writer) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(w.opt.ModuleRoot, filepath.FromSlash(path))
}

// location is a site's physical location: URI relative to %SRCROOT% (an
// absolute file URI for a file outside it), line, and column in code
// points (Go columns are bytes).
func (w *writer) location(site trace.Site, msg *Message) Location {
	path, line, col := site.Path, site.Line, site.Col
	abs := w.abs(path)
	al := ArtifactLocation{URI: fileURI(abs, false)}
	if rel, err := filepath.Rel(w.opt.SrcRoot, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		al = ArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: SrcRoot}
	}
	loc := Location{PhysicalLocation: &PhysicalLocation{ArtifactLocation: al}, Message: msg}
	if line > 0 {
		reg := &Region{StartLine: line}
		if col > 0 {
			reg.StartColumn = col
			if src := w.line(abs, line); src != "" && col-1 <= len(src) {
				reg.StartColumn = utf8.RuneCountInString(src[:col-1]) + 1
			}
		}
		loc.PhysicalLocation.Region = reg
	}
	return loc
}

// line returns line n (1-based) of a file, "" if it cannot.
func (w *writer) line(abs string, n int) string {
	ls, ok := w.lines[abs]
	if !ok {
		if b, err := os.ReadFile(abs); err == nil {
			ls = strings.Split(string(b), "\n")
		}
		w.lines[abs] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

// fingerprint identifies a finding across commits: its rule and pattern
// and, for each of its sites (sorted, each once), the file, the trimmed
// text of the line and which occurrence of that text in the file it is —
// not line numbers, so edits elsewhere in the file do not change it.
func (w *writer) fingerprint(f check.Finding, ruleID string) string {
	var keys []string
	for _, s := range f.Anomaly.Sites {
		site, _ := trace.ParseSite(s) // the zero Site if none
		path, line, col := site.Path, site.Line, site.Col
		abs := w.abs(path)
		text := strings.TrimSpace(w.line(abs, line))
		rel := filepath.ToSlash(path)
		if r, err := filepath.Rel(w.opt.SrcRoot, abs); err == nil {
			rel = filepath.ToSlash(r)
		}
		if text == "" {
			keys = append(keys, fmt.Sprintf("%s:%d:%d", rel, line, col))
			continue
		}
		nth := 0
		for i := 1; i < line; i++ {
			if strings.TrimSpace(w.line(abs, i)) == text {
				nth++
			}
		}
		keys = append(keys, fmt.Sprintf("%s\x00%s\x00%d\x00%d", rel, text, nth, col))
	}
	sort.Strings(keys)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", ruleID, f.Anomaly.Pattern.ID())
	prev := ""
	for _, k := range keys {
		if k != prev {
			fmt.Fprintf(h, "%s\x01", k)
		}
		prev = k
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// fileURI is the file: URI of an absolute path (with a trailing slash for
// a directory, as base URIs need).
func fileURI(abs string, dir bool) string {
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// Encode writes the log as indented JSON.
func (l *Log) Encode(w io.Writer) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(l); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteFile writes the log to path atomically: a temporary file in the
// same directory, renamed over path once complete, so that a reader (or a
// failed run) never sees half a log.
func (l *Log) WriteFile(path string) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = l.Encode(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
