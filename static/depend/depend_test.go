package depend

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// index loads testdata/src/dep.
func index(t *testing.T) (*Index, func(line, col string) string) {
	t.Helper()
	root, err := filepath.Abs("testdata/src")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: root, Tests: true}
	pkgs, err := packages.Load(cfg, "./dep")
	if err != nil {
		t.Fatal(err)
	}
	x, err := Build(pkgs, root)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(root, "dep/dep.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	// at returns the site of the first line containing line, at the
	// column where col starts in it.
	at := func(line, col string) string {
		for i, l := range lines {
			if strings.Contains(l, line) {
				c := strings.Index(l, col)
				if c < 0 {
					t.Fatalf("%q not in line %q", col, l)
				}
				return fmt.Sprintf("dep/dep.go:%d:%d", i+1, c+1)
			}
		}
		t.Fatalf("no line %q", line)
		return ""
	}
	return x, at
}

// shift moves a "file:line:col" site's column by n.
func shift(site string, n int) string {
	i := strings.LastIndex(site, ":")
	var col int
	fmt.Sscan(site[i+1:], &col)
	return fmt.Sprintf("%s:%d", site[:i], col+n)
}

func TestJudge(t *testing.T) {
	x, at := index(t)
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, recv, name string) Frame { return Frame{ID: id, Site: method(recv, name)} }
	r := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: fr}
	}
	w := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: site, Frames: fr}
	}
	rmw := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Write: true, Site: site, Frames: fr}
	}
	withdraw := frame(1, "l *Ledger", "Withdraw")
	other := frame(50, "l *Ledger", "debit")
	bal := at("return l.balance", "balance")
	debit := at("l.balance -= n", "balance")
	getTwo, touch := frame(1, "c *Cache", "GetTwo"), frame(1, "c *Cache", "Touch")
	get2, get3 := frame(2, "c *Cache", "get"), frame(3, "c *Cache", "get")
	nget, m := at("c.nget++", "nget"), at("return c.m[k]", "[")
	do := frame(1, "cb *Breaker", "Do")
	put := frame(1, "s *Slot", "Put")
	sweep := frame(1, "c *Cache", "Sweep")
	rng, del := at("for k, v := range c.m", "for"), at("delete(c.m, k)", "(")
	reread := func(e Event, later ...int) Event { e.Reread = later; return e }
	flightDo := frame(1, "g *Flight", "Do")
	poolDo := frame(1, "g *PoolFlight[K, V]", "Do")
	onVar := func(v int, e Event) Event { e.Var = v; return e }
	seen := func(e Event, vars ...int) Event { e.Seen = vars; return e }
	claimed := func(e Event) Event { e.Claimed = true; return e }
	keyed := func(e Event, k int64) Event { e.Key = k; return e }
	acquired, released := at("l.cur[m] = Held{gid, stack} // locks acquired", "["), at("delete(l.cur, m) // locks released", "(")
	checkHeld := at("for o, h := range l.cur { // locks check", "for")
	drainRun, drainBusy := frame(1, "d *Drain", "Run"), frame(9, "d *Drain", "Busy")
	request, requestBlind := frame(1, "d *Drain", "Request"), frame(1, "d *Drain", "RequestBlind")
	blind, from := frame(1, "d *Drain", "RunBlind"), frame(1, "d *Drain", "RunFrom")
	// call is the site of the call of callee on line: its parenthesis.
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	grow, growIn := frame(1, "r *Resizer", "Grow"), frame(2, "r *Resizer", "grow")
	ringResize, ringResizeIn := frame(1, "r *Ring", "Resize"), frame(2, "r *Ring", "resize")
	ringMark, ringMarkIn := frame(1, "r *Ring", "Mark"), frame(2, "r *Ring", "mark")
	busy := call("func (d *Drain) Busy()", "Load")
	casClose := call("if !d.status.CompareAndSwap(drainProcessing, drainIdle)", "CompareAndSwap")
	rootCas := call("// root cas", "CompareAndSwapPointer")
	install, installOnce := frame(1, "r *Root", "Install"), frame(1, "r *Root", "InstallOnce")
	casIn := func(id int32) Frame { return frame(id, "r *Root", "cas") }
	complete, completeOnce := frame(3, "r *Root", "complete"), frame(3, "r *Root", "completeOnce")
	helper := []Frame{frame(9, "r *Root", "complete"), casIn(10)}
	swap, swapOnce := frame(1, "r *Root", "Swap"), frame(1, "r *Root", "SwapOnce")

	// trie is ctrie's snapshot (loop, through its install wrapper inst):
	// the unit loads the root through readRoot → readRootP, another
	// unit's snapshot CASes it, then the unit's CAS from the value loaded.
	trie := func(loop, inst string) []Event {
		tf := func(id int32, name string) Frame { return frame(id, "t *Trie", name) }
		cas := call("// trie cas", "CompareAndSwapPointer")
		return []Event{
			r(1, call("// trie load", "LoadPointer"), tf(1, loop), tf(2, "readRoot"), tf(3, "readRootP")),
			rmw(2, cas, tf(9, "Snapshot"), tf(10, "rdcss"), tf(11, "casRoot")),
			rmw(1, cas, tf(1, loop), tf(4, inst), tf(5, "casRoot")),
		}
	}
	// future is Selectable's GetResult against Fill (type typ): the unit
	// (method get) loads filled at the line marked typ+" "+fast, Fill
	// sets filled and replaces wait, then the unit's getter reads wait
	// at the line marked typ+" "+lazy.
	future := func(typ, get, getter, fast, lazy string) []Event {
		ff := func(id int32, name string) Frame { return frame(id, "f *"+typ, name) }
		return []Event{
			r(1, call("// "+typ+" "+fast, "LoadUint32"), ff(1, get)),
			w(2, call("// "+typ+" filled", "StoreUint32"), ff(9, "Fill")),
			onVar(1, w(2, at("// "+typ+" final", "wait"), ff(9, "Fill"))),
			onVar(1, r(1, at("// "+typ+" "+lazy, "wait"), ff(1, get), ff(2, getter))),
		}
	}
	// trieComplete is trie with the unit's last CAS in the completion's
	// retry loop, which inst enters after its own CAS (not an event).
	trieComplete := func(loop, inst string) []Event {
		evs := trie(loop, inst)
		evs[2].Frames = []Frame{frame(1, "t *Trie", loop), frame(4, "t *Trie", inst), frame(5, "t *Trie", "completeRoot"), frame(6, "t *Trie", "casRoot")}
		return evs
	}
	// The receiver's type name begins with Load: find the method's name
	// by its parenthesis.
	loader := func(name string, id int32) Frame {
		return Frame{ID: id, Site: at("func (l *Loader) "+name+"(", name+"(")}
	}
	// lazy is gcache's Group.m: the unit (in method, at the line storing
	// made) makes the map; another caller looks its key up
	// in it, misses, and checks the cache's size in its store; then the
	// unit stores into the cache.
	lazy := func(made, method string) []Event {
		return []Event{
			w(1, at("l.m = "+made, "m ="), loader(method, 1)),
			r(2, at("if c, ok := l.m[key]; ok { // pending", "m["), loader("Load", 9)),
			onVar(1, r(2, at("if len(l.items) >= l.size { // full", "("), loader("Load", 9), loader("store", 10))),
			onVar(1, w(1, at("l.items[key] = 1 // stored", "["), loader(method, 1), loader("store", 2))),
		}
	}
	// streams is Streams (type typ, lines marked pre+" ..."): Serve's
	// init makes the map, Listeners reads it and its len, then Serve
	// registers into it.
	streams := func(typ, pre string) []Event {
		sf := func(id int32, name string) Frame { return frame(id, "s *"+typ, name) }
		return []Event{
			w(1, at("s.m = make(map[string]chan int) // "+pre+" once", "m ="), sf(1, "Serve"), sf(2, "init")),
			r(2, at("return len(s.m) // "+pre+" len", "m)"), sf(9, "Listeners")),
			onVar(1, r(2, at("return len(s.m) // "+pre+" len", "("), sf(9, "Listeners"))),
			onVar(1, w(1, at("s.m[key] = make(chan int) // "+pre+" register", "["), sf(1, "Serve"))),
		}
	}
	// entry is asynccache's Get (val, then err) between writer's two
	// stores, Entry.Store called from writer.
	entry := func(writer string) []Event {
		ef := func(id int32, recv, name string) Frame { return frame(id, recv, name) }
		get := call("return e.val.Load(), e.err.Load() // entry get", "Load")
		return []Event{
			w(1, call("e.val.Store(x) // entry val store", "Store"), ef(1, "e *Entry", writer), ef(2, "e *Entry", "Store")),
			r(2, get, ef(9, "e *Entry", "Get")),
			onVar(1, r(2, call("v := e.v.Load() // entry err load", "Load"), ef(9, "e *Entry", "Get"), ef(10, "e *EntryError", "Load"))),
			onVar(1, w(1, call("e.v.Store(errHolder{err: err}) // entry err store", "Store"), ef(1, "e *Entry", writer), ef(2, "e *Entry", "Store"), ef(3, "e *EntryError", "Store"))),
		}
	}
	// guardEntry is GetOr-like method (reader) testing the error, then
	// reading the value at the line marked value, around writer's stores.
	guardEntry := func(writer, reader, value, line string) []Event {
		e := entry(writer)
		rf := frame(1, "e *Entry", reader)
		return []Event{
			onVar(1, r(1, call("v := e.v.Load() // entry err load", "Load"), rf, frame(2, "e *EntryError", "Load"))),
			{Thread: 2, Unit: 2, Write: true, Site: e[0].Site, Frames: []Frame{frame(9, "e *Entry", writer), frame(10, "e *Entry", "Store")}},
			{Thread: 2, Unit: 2, Write: true, Var: 1, Site: e[3].Site, Frames: []Frame{frame(9, "e *Entry", writer), frame(10, "e *Entry", "Store"), frame(11, "e *EntryError", "Store")}},
			r(1, call(line+" // "+value, "Load"), rf),
		}
	}
	// writerGuardEntry is guardEntry seen from the writer: its two
	// stores are the unit, the reader's test of the error and its read
	// of the value fall between (asynccache.go:107 asv-10).
	writerGuardEntry := func(writer, reader, value, line string) []Event {
		g := guardEntry(writer, reader, value, line)
		rerr, wval, werr, rval := g[0], g[1], g[2], g[3]
		for _, ev := range []*Event{&rerr, &rval} {
			ev.Thread, ev.Unit = 2, 2
		}
		for _, ev := range []*Event{&wval, &werr} {
			ev.Thread, ev.Unit = 1, 1
		}
		return []Event{wval, rerr, rval, werr}
	}
	// unitEntry is entry seen from Get: its two reads are the unit.
	unitEntry := func(writer string) []Event {
		e := entry(writer)
		r1, r2, w1, w2 := e[1], e[2], e[0], e[3]
		for _, ev := range []*Event{&r1, &r2} {
			ev.Thread, ev.Unit = 1, 1
		}
		for _, ev := range []*Event{&w1, &w2} {
			ev.Thread, ev.Unit = 2, 2
		}
		return []Event{r1, w1, w2, r2}
	}
	// after gives e the path after it: the sites of the lines marked
	// (at their first call's parenthesis, or their index).
	after := func(e Event, marks ...string) Event {
		for _, m := range marks {
			col := "("
			if m == "crew take" {
				col = "["
			}
			e.After = append(e.After, at("// "+m, col))
		}
		return e
	}
	// crew is pond's worker loop (dep.go's Crew): the worker's test of
	// the count, the other unit's write at remote, and the worker's
	// leave a round later; path marks the lines the worker's steps
	// after its read were at.
	crewLeave := call("c.n.Add(-1) // crew leave", "Add")
	crewGrow := call("c.n.Add(1) // crew grow", "Add")
	// subpools is dep.go's Subpools: writer's two adds (marked
	// "subpools <w> sub/parent"), and between them the reader's two
	// reads, of the subpool's count then the parent's (marked
	// "// subpools <r1>" and "// subpools <r2>"), each followed on its
	// path by the step at the line marked p1, p2 ("" for none).
	subpools := func(writer, w, reader, r1, r2, p1, p2 string) []Event {
		path := func(e Event, mark string) Event {
			if mark != "" {
				e.After = []string{call("// "+mark, "Add")}
			}
			return e
		}
		wf, rf := frame(1, "p *Subpools", writer), frame(9, "p *Subpools", reader)
		return []Event{
			rmw(1, call("// subpools "+w+" sub", "Add"), wf),
			path(r(2, call("// subpools "+r1, "Load"), rf), p1),
			onVar(1, path(r(2, call("// subpools "+r2, "Load"), rf), p2)),
			onVar(1, rmw(1, call("// subpools "+w+" parent", "Add"), wf)),
		}
	}
	// crewRound is a one-job worker's job count and its write of the
	// crew's size at second (its quit, or an increment) around another
	// worker's limit test and its next round's job count.
	crewRound := func(second string) []Event {
		count := call("c.reads.Add(1) // crew count", "Add")
		run := frame(1, "c *Crew", "Run")
		return []Event{
			rmw(1, count, run, frame(2, "c *Crew", "next")),
			onVar(1, after(r(2, call("if c.max > 0 && int(c.n.Load()) > c.max { // crew check", "Load"), frame(9, "c *Crew", "Work"), frame(10, "c *Crew", "next")), "crew take")),
			rmw(2, count, frame(9, "c *Crew", "Work"), frame(11, "c *Crew", "next")),
			onVar(1, rmw(1, second, run)),
		}
	}
	crewQuit, crewJoin := call("c.n.Add(-1) // crew quit", "Add"), call("c.n.Add(1) // crew join", "Add")
	// crewCheck is crewRound seen from the checking worker: its limit
	// test, another worker's count (when counted) and its write of the
	// crew's size at second, then the checking worker's own count.
	crewCheck := func(second string, counted bool) []Event {
		count := call("c.reads.Add(1) // crew count", "Add")
		evs := []Event{onVar(1, after(r(1, call("if c.max > 0 && int(c.n.Load()) > c.max { // crew check", "Load"), frame(1, "c *Crew", "Work"), frame(2, "c *Crew", "next")), "crew take"))}
		if counted {
			evs = append(evs, rmw(2, count, frame(9, "c *Crew", "Run"), frame(10, "c *Crew", "next")))
		} else {
			evs = append(evs, w(2, at("c.reads.Store(0) // crew reset", "Store"), frame(9, "c *Crew", "Reset")))
		}
		return append(evs, onVar(1, rmw(2, second, frame(9, "c *Crew", "Run"))), rmw(1, count, frame(1, "c *Crew", "Work"), frame(2, "c *Crew", "next")))
	}
	// stepped places evs at schedule steps 1, 2, 4, … (a gap after the
	// second, for a write the pattern does not hold).
	stepped := func(evs []Event) []Event {
		for k := range evs {
			evs[k].Step = 2*k + max(0, 1-k)
		}
		return evs
	}
	crew := func(remote string, path ...string) []Event {
		return []Event{
			after(r(1, call("if c.max > 0 && int(c.n.Load()) > c.max { // crew check", "Load"), frame(1, "c *Crew", "Work"), frame(2, "c *Crew", "next")), path...),
			rmw(2, remote, frame(9, "c *Crew", "next")),
			rmw(1, crewLeave, frame(1, "c *Crew", "Work"), frame(3, "c *Crew", "next")),
		}
	}
	crewHire, crewLoose := call("c.n.Add(1) // crew hire", "Add"), call("c.n.Add(1) // crew loose hire", "Add")
	// guarded is crew with the schedule's writes in the stretch: the
	// pattern's add at remote, its goroutine's last read before it at
	// the line marked guard ("" for none), and the sites of the
	// stretch's other writes (stored).
	guarded := func(remote, guard string, stored []string) []Event {
		evs := stepped(crew(remote, "crew take", "crew unlock"))
		t := Touch{Step: 2, Site: remote}
		if guard != "" {
			t.Guard = call("// "+guard, "Load")
		}
		evs[0].Writes = []Touch{t}
		evs[0].Stored = append([]string{remote}, stored...)
		return evs
	}
	spawnerRelease, spawnerDone := call("atomic.AddInt32(&s.load, -1) // spawner release", "AddInt32"), frame(1, "s *Spawner", "Done")
	// spawnerWrites is a unit's two releases around a spawner's test, in
	// a schedule whose goroutine taker takes a lock between them.
	spawnerWrites := func(taker string) []Event {
		evs := []Event{
			rmw(1, spawnerRelease, spawnerDone, frame(2, "s *Spawner", "Release")),
			r(2, call("if atomic.LoadInt32(&s.load) < max { // spawner if", "LoadInt32"), frame(9, "s *Spawner", "SpawnIf")),
			rmw(1, spawnerRelease, spawnerDone, frame(3, "s *Spawner", "Release")),
		}
		evs[0].Step, evs[1].Step, evs[2].Step = 1, 3, 4
		evs[1].Writes = []Touch{{Step: 1, Site: spawnerRelease, G: "g2"}, {Step: 2, Site: call("atomic.AddInt32(&s.load, 1) // spawner take", "AddInt32"), G: taker}, {Step: 4, Site: spawnerRelease, G: "g2"}}
		return evs
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"check-then-act across two calls", []Event{
			r(1, bal, withdraw, frame(2, "l *Ledger", "Balance")), w(2, debit, other), w(1, debit, withdraw, frame(3, "l *Ledger", "debit")),
		}, true},
		// The next round's debit, under a fresh test of closed, still
		// depends on the last round's check (dep.go's Teller).
		{"check, then the next round's debit through the loop's back edge", []Event{
			r(1, call("low := t.balance.Load() < n // teller check", "Load"), frame(1, "t *Teller", "Drain"), frame(2, "t *Teller", "take")),
			rmw(2, call("t.balance.Add(-n) // teller debit", "Add"), frame(9, "t *Teller", "take")),
			rmw(1, call("t.balance.Add(-n) // teller debit", "Add"), frame(1, "t *Teller", "Drain"), frame(3, "t *Teller", "take")),
		}, true},
		// pond's worker: the test "not over" taken (the unit's path goes
		// on to take a job), another worker's leave between only
		// lowers the count, which keeps it (boundKept).
		{"bound kept: not over, another's leave, the next round's leave", crew(crewLeave, "crew take", "crew unlock"), false},
		{"bound kept: the path known only past unrelated steps", crew(crewLeave, "crew unlock"), false},
		// The schedule held a Grow's increment in the stretch besides
		// the pattern's leave: it counts too.
		{"bound not kept: a Grow's increment in the schedule, not in the pattern", func() []Event {
			evs := stepped(crew(crewLeave, "crew take", "crew unlock"))
			evs[0].Writes = []Touch{{Step: 2, Site: crewLeave}, {Step: 3, Site: crewGrow}}
			return evs
		}(), true},
		// A Grow after the unit's leave is no matter.
		{"bound kept: the schedule's other writes in the stretch all leaves", func() []Event {
			evs := stepped(crew(crewLeave, "crew take", "crew unlock"))
			evs[0].Writes = []Touch{{Step: 2, Site: crewLeave}, {Step: 3, Site: crewLeave}, {Step: 5, Site: crewGrow}}
			return evs
		}(), false},
		// pond's trySubmit: an increment under the lock after a test of
		// the count against the same limit (below it) leaves at most
		// max, which keeps "not over" (guardKeeps).
		{"bound kept: a Hire's increment under its test below the limit", guarded(crewHire, "crew hire check", nil), false},
		// The schedule shows no clean guard (a write between the test
		// and the add): the increment is judged by its sign.
		{"bound not kept: a Hire's increment without its test", guarded(crewHire, "", nil), true},
		// The limit stored in the stretch: the two tests' bounds may
		// differ.
		{"bound not kept: a Hire's increment, the limit resized in the stretch", guarded(crewHire, "crew hire check", []string{at("c.max = max // crew resize", "max =")}), true},
		// A test that lets the count reach max+1 does not keep "not over".
		{"bound not kept: an increment under a test that allows max+1", guarded(crewLoose, "crew loose check", nil), true},
		// An increment can make "not over" false: the unit went on
		// past the limit on a stale test.
		{"bound not kept: not over, a Grow's increment between", crew(crewGrow, "crew take", "crew unlock"), true},
		// The path went the other way (over): a decrement can end it.
		{"bound not kept: over, another's leave between", crew(crewLeave, "crew over"), true},
		// The read made again first: a loop came round to the test.
		{"bound unknown: the read again before the path tells", func() []Event {
			evs := crew(crewLeave, "crew take")
			evs[0].After = append([]string{evs[0].Site}, evs[0].After...)
			return evs
		}(), true},
		// No path: which way the test went is unknown.
		{"bound unknown: no path after the read", crew(crewLeave), true},
		// A uint32 take (an add of ^uint32(0)) wraps below "at least
		// min" though its constant is positive.
		{"bound not kept: an unsigned count's wrapping take", []Event{
			after(r(1, call("if c.n.Load() < c.min { // count check", "Load"), frame(1, "c *Count", "Use")), "count unlock"),
			rmw(2, call("c.n.Add(^uint32(0)) // count take", "Add"), frame(9, "c *Count", "Use")),
			rmw(1, call("c.n.Add(^uint32(0)) // count take", "Add"), frame(1, "c *Count", "Use")),
		}, true},
		// pond's Submit between a subpool worker's exit's two
		// decrements: the parent's "below its limit" is kept by the
		// parent's decrement, so Submit went as after the exit.
		{"snapshot kept: an exit's decrements around the parent's test", subpools("Exit", "exit", "Submit", "sub check", "parent check", "subpools sub run", "subpools parent run"), false},
		// A launch's increments: the subpool's "below" read after the
		// first is kept by undoing it, so Submit went as before.
		{"snapshot kept: a launch's increments around the subpool's test", subpools("Launch", "launch", "Submit", "sub check", "parent check", "subpools sub run", "subpools parent run"), false},
		// Busy and idle read across a launch: undoing the subpool's
		// increment can make "busy" false, and the parent's increment
		// can make "idle" false: an alarm no serial order raises.
		{"snapshot not kept: busy then idle across a launch", subpools("Launch", "launch", "Watch", "busy", "idle", "subpools busy run", "subpools alarm"), true},
		// pond's linkedbuffer.go:87 asv: a worker counts a job taken and
		// later leaves; another worker between tests "not over" (the
		// count before the leave) and counts its own job (after the
		// first count), a round later. The leave keeps "not over": it
		// went as after the first worker's round.
		{"snapshot kept: not over, then a job counted, between a count and a quit", crewRound(crewQuit), false},
		// The same from the checking worker: its "not over", another
		// worker's count and quit, then its own count. The quit keeps
		// the test; the counts are blind adds, which commute (pond v2's
		// pool.go:478 asv).
		{"bound kept: not over, another's count and quit, then the unit's count", crewCheck(crewQuit, true), false},
		{"bound not kept: not over, another's count and join, then the unit's count", crewCheck(crewJoin, true), true},
		{"bound not kept: not over, another's reset of the count (a store) and quit, then the unit's count", crewCheck(crewQuit, false), true},
		// An increment (a Run that joined the crew again) can make
		// "not over" false.
		{"snapshot not kept: not over, then a job counted, between a count and a join", crewRound(crewJoin), true},
		// Without the paths the outcomes are unknown.
		{"snapshot unknown: no paths", subpools("Exit", "exit", "Submit", "sub check", "parent check", "", ""), true},
		{"read-modify-write split in one call", []Event{
			r(1, at("b := l.balance", "balance"), frame(1, "l *Ledger", "Split")), w(2, debit, other), w(1, at("l.balance = b + n", "balance"), frame(1, "l *Ledger", "Split")),
		}, true},
		{"counter in two calls: read, read", []Event{
			r(1, nget, getTwo, get2), w(2, nget, frame(9, "c *Cache", "get")), r(1, nget, getTwo, get3),
		}, false},
		{"counter in two calls: read, write", []Event{
			r(1, nget, touch, get2), w(2, nget, frame(9, "c *Cache", "get")), w(1, nget, touch, get3),
		}, false},
		{"counter in two calls of a test's closure", []Event{
			r(1, nget, get2), w(2, nget, frame(9, "c *Cache", "get")), w(1, nget, get3),
		}, false},
		{"two lookups used apart", []Event{
			r(1, m, touch, get2), w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")), r(1, m, touch, get3),
		}, false},
		{"two lookups summed into the result", []Event{
			r(1, m, getTwo, get2), w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")), r(1, m, getTwo, get3),
		}, true},
		{"lookup then insert", []Event{
			r(1, at("v, ok := c.m[k]", "["), frame(1, "c *Cache", "GetOrCreate"), frame(2, "c *Cache", "load")),
			w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")),
			w(1, at("c.m[k] = v", "["), frame(1, "c *Cache", "GetOrCreate"), frame(3, "c *Cache", "store")),
		}, true},
		{"request counter read by another method", []Event{
			r(1, at("cb.requests++", "requests"), do, frame(2, "cb *Breaker", "before")),
			w(2, at("cb.requests++", "requests"), frame(9, "cb *Breaker", "before")),
			r(1, at("cb.failures > cb.requests/2", "requests"), do, frame(3, "cb *Breaker", "after")),
		}, false},
		{"read, then reset: the read value returned", []Event{
			r(1, at("n := cb.requests", "requests"), frame(1, "cb *Breaker", "Drain")),
			w(2, at("cb.requests++", "requests"), frame(9, "cb *Breaker", "before")),
			w(1, at("cb.requests = 0", "requests"), frame(1, "cb *Breaker", "Drain")),
		}, true},
		{"write, then read back and returned", []Event{
			w(1, at("s.v = v", "v ="), put), w(2, at("s.v = v", "v ="), frame(9, "s *Slot", "Put")), r(1, at("return s.v", "v"), put),
		}, true},
		{"intermediate state read and returned", []Event{
			w(1, at("s.v = v", "v ="), put), r(2, at("got := s.v", "v"), frame(9, "s *Slot", "Get")), w(1, at("s.v = v", "v ="), put),
		}, true},
		// linkdata/deadlock's lockOrder: the lock's record inserted, a
		// check ranging over the held locks, the record deleted.
		{"a held lock's record, by value, inserted then deleted at one key: a marker", []Event{
			keyed(w(1, acquired, frame(2, "l *Locks", "Acquired")), 7), r(2, checkHeld, frame(9, "l *Locks", "Check")), keyed(w(1, released, frame(3, "l *Locks", "Released")), 7),
		}, false},
		{"a held lock's record inserted then deleted, the keys not recorded", []Event{
			w(1, acquired, frame(2, "l *Locks", "Acquired")), r(2, checkHeld, frame(9, "l *Locks", "Check")), w(1, released, frame(3, "l *Locks", "Released")),
		}, true},
		{"a record inserted at one key, another key deleted", []Event{
			keyed(w(1, acquired, frame(2, "l *Locks", "Acquired")), 7), r(2, checkHeld, frame(9, "l *Locks", "Check")), keyed(w(1, released, frame(3, "l *Locks", "Released")), 8),
		}, true},
		{"a record deleted then inserted again: the lock looks free between", []Event{
			keyed(w(1, at("delete(l.cur, m) // locks handed out", "("), frame(2, "l *Locks", "Handover")), 7), r(2, checkHeld, frame(9, "l *Locks", "Check")),
			keyed(w(1, at("l.cur[m] = h // locks handed in", "["), frame(2, "l *Locks", "Handover")), 7),
		}, true},
		{"a record by pointer, filled after the insert, then deleted", []Event{
			keyed(w(1, at("l.ptr[m] = h // locks acquired ptr", "["), frame(2, "l *Locks", "AcquiredPtr")), 7), r(2, at("for o, h := range l.ptr { // locks check ptr", "for"), frame(9, "l *Locks", "CheckPtr")),
			keyed(w(1, at("delete(l.ptr, m) // locks released ptr", "("), frame(3, "l *Locks", "ReleasedPtr")), 7),
		}, true},
		{"the pending call, a pointer, read and used without waiting, one key", []Event{
			keyed(w(1, at("g.m[key] = c", "["), flightDo), 5),
			r(2, at("if p, ok := g.m[key]; ok {", "["), frame(9, "g *Flight", "Peek")),
			keyed(w(1, at("delete(g.m, key)", "("), flightDo, frame(2, "g *Flight", "doCall")), 5),
		}, true},
		// linkdata/deadlock's TestNoDeadlocks: a worker's two releases
		// each lower the load, the spawner's test "under the cap"
		// between them goes as before or as after them (middleKept).
		{"a load's two releases, a spawner's test under a cap between: kept", []Event{
			rmw(1, spawnerRelease, spawnerDone, frame(2, "s *Spawner", "Release")),
			after(r(2, call("if atomic.LoadInt32(&s.load) < max { // spawner if", "LoadInt32"), frame(9, "s *Spawner", "SpawnIf")), "spawner if start"),
			rmw(1, spawnerRelease, spawnerDone, frame(3, "s *Spawner", "Release")),
		}, false},
		{"a load's two releases, the spawner's path not known: kept all the same", []Event{
			rmw(1, spawnerRelease, spawnerDone, frame(2, "s *Spawner", "Release")),
			r(2, call("if atomic.LoadInt32(&s.load) < max { // spawner if", "LoadInt32"), frame(9, "s *Spawner", "SpawnIf")),
			rmw(1, spawnerRelease, spawnerDone, frame(3, "s *Spawner", "Release")),
		}, false},
		// The schedule's writes: another worker's take between the
		// releases is no matter, the unit's own take is.
		{"a load's two releases, another's take between: kept", spawnerWrites("g3"), false},
		{"a load's two releases, the unit's own take between", spawnerWrites("g2"), true},
		{"a load's two releases, a spawner's test for equality between", []Event{
			rmw(1, spawnerRelease, spawnerDone, frame(2, "s *Spawner", "Release")),
			after(r(2, call("if atomic.LoadInt32(&s.load) == max { // spawner exact", "LoadInt32"), frame(9, "s *Spawner", "SpawnAt")), "spawner exact start"),
			rmw(1, spawnerRelease, spawnerDone, frame(3, "s *Spawner", "Release")),
		}, true},
		{"intermediate state read and dropped", []Event{
			w(1, at("s.v = v", "v ="), put), r(2, at("_ = s.v", "v"), frame(9, "s *Slot", "Peek")), w(1, at("s.v = v", "v ="), put),
		}, false},
		{"map range: key read, then a later iteration's delete", []Event{
			r(1, rng, sweep), w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")), w(1, del, sweep),
		}, true},
		{"map range: the map read again for the key before the delete", []Event{
			reread(r(1, rng, sweep), 2), w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")), w(1, del, sweep),
		}, false},
		{"map range: delete, then the next key (no read-back)", []Event{
			w(1, del, sweep), w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")), r(1, rng, sweep),
		}, false},
		{"lookup then insert, the other unit touching only another variable between", []Event{
			r(1, at("v, ok := c.m[k]", "["), frame(1, "c *Cache", "GetOrCreate"), frame(2, "c *Cache", "load")),
			onVar(1, w(2, nget, frame(9, "c *Cache", "get"))),
			w(1, at("c.m[k] = v", "["), frame(1, "c *Cache", "GetOrCreate"), frame(3, "c *Cache", "store")),
		}, false},
		{"a miss, then the lookup again under the loader's lock: a re-check", []Event{
			r(1, at("v, ok := c.m[k]", "["), frame(1, "c *Cache", "Load"), frame(2, "c *Cache", "load")),
			w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")),
			r(1, at("v, ok := c.m[k]", "["), frame(1, "c *Cache", "Load"), frame(3, "c *Cache", "load")),
		}, false},
		{"a check, then the fresh value dereferenced untested", []Event{
			r(1, at("ok := c.p[k] != nil", "["), frame(1, "c *Cache", "Deref")),
			w(2, at("c.p[k] = nil", "["), frame(9, "c *Cache", "Drop")),
			r(1, at("return *c.p[k]", "["), frame(1, "c *Cache", "Deref")),
		}, true},
		{"a CAS loop: load, then a CAS against the value loaded", []Event{
			r(1, at("old := g.v.Load()", "("), frame(1, "g *Gauge", "Raise")),
			rmw(2, at("if g.v.CompareAndSwap(old, n)", "("), frame(9, "g *Gauge", "Raise")),
			rmw(1, at("if g.v.CompareAndSwap(old, n)", "("), frame(1, "g *Gauge", "Raise")),
		}, false},
		{"a CAS loop through the package functions", []Event{
			r(1, at("old := atomic.LoadInt64(&g.raw)", "("), frame(1, "g *Gauge", "RaiseRaw")),
			rmw(2, at("if atomic.CompareAndSwapInt64(&g.raw, old, n)", "("), frame(9, "g *Gauge", "RaiseRaw")),
			rmw(1, at("if atomic.CompareAndSwapInt64(&g.raw, old, n)", "("), frame(1, "g *Gauge", "RaiseRaw")),
		}, false},
		{"a load, then a plain store: no CAS to fail", []Event{
			r(1, at("if old := atomic.LoadInt64(&g.raw); old < n", "("), frame(1, "g *Gauge", "RaiseBlind")),
			w(2, at("atomic.StoreInt64(&g.raw, n)", "("), frame(9, "g *Gauge", "RaiseBlind")),
			w(1, at("atomic.StoreInt64(&g.raw, n)", "("), frame(1, "g *Gauge", "RaiseBlind")),
		}, true},
		{"a published state: stored, then closed by a CAS from it", []Event{
			w(1, call("// run publishes", "Store"), drainRun), r(2, busy, drainBusy), rmw(1, casClose, drainRun),
		}, false},
		{"an intermediate state closed by a plain store", []Event{
			w(1, call("// blind publishes", "Store"), blind), r(2, busy, drainBusy), w(1, call("d.status.Store(drainIdle)", "Store"), blind),
		}, true},
		{"an intermediate state closed by a CAS from another value", []Event{
			w(1, call("// from", "Store"), from), r(2, busy, drainBusy), rmw(1, call("d.status.CompareAndSwap(drainRequired, drainIdle)", "CompareAndSwap"), from),
		}, true},
		{"a published state: the second write decided by a re-read in its own call", []Event{
			rmw(1, call("// request", "CompareAndSwap"), request), r(2, busy, drainBusy),
			w(1, call("// schedule", "Store"), request, frame(2, "d *Drain", "schedule")),
		}, false},
		{"an intermediate state claimed without a re-read", []Event{
			rmw(1, call("// blind request", "CompareAndSwap"), requestBlind),
			r(2, call("func (d *Drain) again()", "Load"), frame(9, "d *Drain", "again")),
			w(1, call("func (d *Drain) claim()", "Store"), requestBlind, frame(2, "d *Drain", "claim")),
		}, true},
		{"an intermediate state claimed without a re-read, tested as idle is: as before the CAS from idle", []Event{
			rmw(1, call("// blind request", "CompareAndSwap"), requestBlind), r(2, busy, drainBusy),
			w(1, call("func (d *Drain) claim()", "Store"), requestBlind, frame(2, "d *Drain", "claim")),
		}, false},
		{"an intermediate state claimed without a re-read, tested once as after and once as before: neither order", []Event{
			rmw(1, call("// blind request", "CompareAndSwap"), requestBlind),
			r(2, call("v := d.status.Load()", "Load"), frame(9, "d *Drain", "Asking")),
			w(1, call("func (d *Drain) claim()", "Store"), requestBlind, frame(2, "d *Drain", "claim")),
		}, true},
		{"a read-back only compared with constants: a check for another's write", []Event{
			rmw(1, casClose, drainRun), w(2, call("func (d *Drain) Require()", "Store"), frame(9, "d *Drain", "Require")),
			r(1, call("func (d *Drain) again()", "Load"), drainRun, frame(2, "d *Drain", "again")),
		}, false},
		{"a flag released, then taken back by a CAS from a constant: a check for another's take", []Event{
			w(1, call("// runner release", "StoreUint64"), frame(1, "r *Runner", "Reset")),
			rmw(2, call("// runner take", "CompareAndSwapUint64"), frame(9, "r *Runner", "run")),
			rmw(1, call("// runner take", "CompareAndSwapUint64"), frame(1, "r *Runner", "Reset"), frame(2, "r *Runner", "run")),
		}, false},
		{"a flag released, then taken back by a CAS from another field's value", []Event{
			w(1, call("// runner release from", "StoreUint64"), frame(1, "r *Runner", "ResetFrom")),
			rmw(2, call("// runner take", "CompareAndSwapUint64"), frame(9, "r *Runner", "run")),
			rmw(1, call("// runner take from", "CompareAndSwapUint64"), frame(1, "r *Runner", "ResetFrom")),
		}, true},
		{"a read-back returned as the unit's own", []Event{
			w(1, call("// status", "Store"), frame(1, "d *Drain", "RunStatus")), w(2, call("func (d *Drain) Require()", "Store"), frame(9, "d *Drain", "Require")),
			r(1, call("// as its own", "Load"), frame(1, "d *Drain", "RunStatus")),
		}, true},
		{"a resize bit: the reader spins on the odd index", []Event{
			rmw(1, call("// resize bit", "CompareAndSwap"), grow, growIn), r(2, call("// next load", "Load"), frame(9, "r *Resizer", "Next")),
			w(1, call("// resized", "Store"), grow, growIn),
		}, false},
		{"a resize bit the reader records before it spins", []Event{
			rmw(1, call("// resize bit", "CompareAndSwap"), grow, growIn), r(2, call("// seen load", "Load"), frame(9, "r *Resizer", "NextSeen")),
			w(1, call("// resized", "Store"), grow, growIn),
		}, true},
		{"a resize bit the reader's spin does not test", []Event{
			rmw(1, call("// resize bit", "CompareAndSwap"), grow, growIn), r(2, call("// low load", "Load"), frame(9, "r *Resizer", "NextLow")),
			w(1, call("// resized", "Store"), grow, growIn),
		}, true},
		{"a resize bit compared with an even index: never equal", []Event{
			rmw(1, call("// ring bit", "CompareAndSwap"), ringResize, ringResizeIn), r(2, call("// ring pop load", "Load"), frame(9, "r *Ring", "Pop")),
			w(1, call("// ring resized", "Store"), ringResize, ringResizeIn),
		}, false},
		{"a mark compared with an even index, the index restored after it", []Event{
			rmw(1, call("// ring mark", "CompareAndSwap"), ringMark, ringMarkIn), r(2, call("// ring pop load", "Load"), frame(9, "r *Ring", "Pop")),
			w(1, call("// ring unmarked", "Store"), ringMark, ringMarkIn),
		}, true},
		{"a resize bit compared with a field that may be odd", []Event{
			rmw(1, call("// ring bit", "CompareAndSwap"), ringResize, ringResizeIn), r(2, call("// ring odd load", "Load"), frame(9, "r *Ring", "PopOdd")),
			w(1, call("// ring resized", "Store"), ringResize, ringResizeIn),
		}, true},
		{"a resize bit returned", []Event{
			rmw(1, call("// ring bit", "CompareAndSwap"), ringResize, ringResizeIn), r(2, call("// ring peek load", "Load"), frame(9, "r *Ring", "Peek")),
			w(1, call("// ring resized", "Store"), ringResize, ringResizeIn),
		}, true},
		{"singleflight: the pending call read by a duplicate caller, which waits for it", []Event{
			w(1, at("g.m[key] = c", "["), flightDo),
			r(2, at("if c, ok := g.m[key]; ok {", "["), frame(9, "g *Flight", "Do")),
			w(1, at("delete(g.m, key)", "("), flightDo, frame(2, "g *Flight", "doCall")),
		}, false},
		{"singleflight: the map then the pending call read by a duplicate caller (inconsistent snapshot), which waits for it", []Event{
			w(1, at("g.m = make(map[string]*flightCall)", "m ="), flightDo),
			onVar(0, r(2, at("if c, ok := g.m[key]; ok {", "m["), frame(9, "g *Flight", "Do"))),
			onVar(1, r(2, at("if c, ok := g.m[key]; ok {", "["), frame(9, "g *Flight", "Do"))),
			onVar(1, w(1, at("delete(g.m, key)", "("), flightDo, frame(2, "g *Flight", "doCall"))),
		}, false},
		{"the pending call read and used without waiting", []Event{
			w(1, at("g.m[key] = c", "["), flightDo),
			r(2, at("if p, ok := g.m[key]; ok {", "["), frame(9, "g *Flight", "Peek")),
			w(1, at("delete(g.m, key)", "("), flightDo, frame(2, "g *Flight", "doCall")),
		}, true},
		{"generic singleflight from a pool: a duplicate joins the pending call between the leader's count and its delete (inconsistent snapshot), and waits for it", []Event{
			onVar(0, rmw(1, at("// PoolFlight lead", "("), poolDo)),
			onVar(1, r(2, at("// PoolFlight lookup", "["), frame(9, "g *PoolFlight[K, V]", "Do"))),
			onVar(0, rmw(2, at("// PoolFlight join", "("), frame(9, "g *PoolFlight[K, V]", "Do"))),
			onVar(1, w(1, at("// PoolFlight done", "("), poolDo, frame(2, "g *PoolFlight[K, V]", "doCall"))),
		}, false},
		{"generic singleflight from a pool: a duplicate reads the result and leaves between the leader's result and its leaving, after waiting", []Event{
			onVar(0, w(1, at("// PoolFlight set", "val"), poolDo, frame(2, "g *PoolFlight[K, V]", "doCall"))),
			onVar(0, r(2, at("// PoolFlight result", "val"), frame(9, "g *PoolFlight[K, V]", "Do"))),
			onVar(1, rmw(2, at("// PoolFlight leave", "("), frame(9, "g *PoolFlight[K, V]", "Do"))),
			onVar(1, rmw(1, at("// PoolFlight release", "("), poolDo)),
		}, false},
		{"generic singleflight from a pool: the pending call joined and read without waiting", []Event{
			onVar(0, rmw(1, at("// PoolFlight lead", "("), poolDo)),
			onVar(1, r(2, at("// PoolFlight peek", "["), frame(9, "g *PoolFlight[K, V]", "Peek"))),
			onVar(0, rmw(2, at("// PoolFlight peek join", "("), frame(9, "g *PoolFlight[K, V]", "Peek"))),
			onVar(1, w(1, at("// PoolFlight done", "("), poolDo, frame(2, "g *PoolFlight[K, V]", "doCall"))),
		}, true},
		// Peek returns the value and only tests the count, to put the
		// call back in the pool: the two never meet (TestJudgeValuesMeet).
		{"generic singleflight from a pool: the pending call's result read and left without waiting, the count only deciding the put", []Event{
			onVar(0, w(1, at("// PoolFlight set", "val"), poolDo, frame(2, "g *PoolFlight[K, V]", "doCall"))),
			onVar(0, r(2, at("// PoolFlight peek result", "val"), frame(9, "g *PoolFlight[K, V]", "Peek"))),
			onVar(1, rmw(2, at("// PoolFlight peek leave", "("), frame(9, "g *PoolFlight[K, V]", "Peek"))),
			onVar(1, rmw(1, at("// PoolFlight release", "("), poolDo)),
		}, false},
		{"generic singleflight from a pool: the pending call's result read and left without waiting, both returned", []Event{
			onVar(0, w(1, at("// PoolFlight set", "val"), poolDo, frame(2, "g *PoolFlight[K, V]", "doCall"))),
			onVar(0, r(2, at("// PoolFlight peeklast result", "val"), frame(9, "g *PoolFlight[K, V]", "PeekLast"))),
			onVar(1, rmw(2, at("// PoolFlight peeklast leave", "("), frame(9, "g *PoolFlight[K, V]", "PeekLast"))),
			onVar(1, rmw(1, at("// PoolFlight release", "("), poolDo)),
		}, true},
		// bool64/cache v0.4.8 failover.go:165 av (issue 26, session 50),
		// a false report that no sound rule drops: the reader found the
		// build lock and, its read of the store hitting, only skipped the
		// store into the lock it found (it waits, in the callee wait,
		// only when the store misses). Run after the delete, its lookup
		// misses and it publishes a lock of its own in the map until its
		// deferred delete, which other callers of the key then find; run
		// before the insert, its whole call (its log records' sequence
		// numbers included) would have to move ahead of the unit's. And
		// handoff must not take the callee's wait for one: this reader
		// waited on nothing.
		{"a per-key build lock found by a reader that only skips the store into it, waiting only in a callee on another path", []Event{
			keyed(w(1, at("k.locks[key] = l // keylocks insert", "["), frame(1, "k *KeyLocks", "Get")), 6),
			keyed(r(2, at("l, found := k.locks[key] // keylocks lookup", "["), frame(9, "k *KeyLocks", "Get")), 6),
			keyed(w(1, at("delete(k.locks, key) // keylocks delete", "("), frame(1, "k *KeyLocks", "Get")), 6),
		}, true},
		{"a duplicate caller waits on a call that the writer never releases", []Event{
			w(1, at("g.m[key] = new(flightCall)", "["), frame(1, "g *Flight", "Hold")),
			r(2, at("if c, ok := g.m[key]; ok {", "["), frame(9, "g *Flight", "Do")),
			w(1, at("delete(g.m, key) // the placeholder gone", "("), frame(1, "g *Flight", "Hold")),
		}, true},
		{"a method without results: the check decides its return, which returns no value", []Event{
			r(1, at("if atomic.LoadInt32(&p.state) == 1 {", "("), frame(1, "p *Pool", "Purge")),
			rmw(2, at("atomic.StoreInt32(&p.state, 1)", "("), frame(9, "p *Pool", "Close")),
			onVar(1, w(2, at("func (s *wstack) reset() { s.items = nil }", "items"), frame(9, "p *Pool", "Close"), frame(10, "s *wstack", "reset"))),
			onVar(1, r(1, at("n := len(s.items)", "items"), frame(1, "p *Pool", "Purge"), frame(2, "s *wstack", "refresh"))),
		}, false},
		{"cache-aside: a miss, an expiry's delete, then the load stored", []Event{
			r(1, at("v, ok := c.m[k] // fetch", "["), frame(1, "c *Cache", "Fetch")),
			w(2, at("delete(c.m, k) // expired", "("), frame(9, "c *Cache", "Expire")),
			w(1, at("c.m[k] = v", "["), frame(1, "c *Cache", "Fetch"), frame(2, "c *Cache", "store")),
		}, false},
		{"cache-aside: a miss, another's insert, then the load stored", []Event{
			r(1, at("v, ok := c.m[k] // fetch", "["), frame(1, "c *Cache", "Fetch")),
			w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")),
			w(1, at("c.m[k] = v", "["), frame(1, "c *Cache", "Fetch"), frame(2, "c *Cache", "store")),
		}, true},
		{"a hit, a delete, then the act on the hit: the key put back", []Event{
			r(1, at("_, ok := c.m[k] // bump", "["), frame(1, "c *Cache", "Bump")),
			w(2, at("delete(c.m, k) // expired", "("), frame(9, "c *Cache", "Expire")),
			w(1, at("c.m[k] = v", "["), frame(1, "c *Cache", "Bump"), frame(2, "c *Cache", "store")),
		}, true},
		{"a claimed key: the miss, another key's call inserted, then the unit's own call deleted", []Event{
			r(1, at("if c, ok := g.m[key]; ok { // claim", "["), frame(1, "g *Flight", "Claim")),
			w(2, at("g.m[key] = c // claimed", "["), frame(9, "g *Flight", "Claim")),
			w(1, at("delete(g.m, key) // run done", "("), frame(1, "g *Flight", "Claim"), frame(2, "g *Flight", "run")),
		}, false},
		{"a miss, an unlock, then the insert: no claim", []Event{
			r(1, at("if c, ok := g.m[key]; ok { // late", "["), frame(1, "g *Flight", "Late")),
			w(2, at("g.m[key] = c // claimed", "["), frame(9, "g *Flight", "Claim")),
			w(1, at("delete(g.m, key) // run done", "("), frame(1, "g *Flight", "Late"), frame(2, "g *Flight", "run")),
		}, true},
		{"a range's delete, another's insert, then the next step's lookup of its own key", []Event{
			w(1, at("delete(c.m, k) // dropped", "("), frame(1, "c *Cache", "Expiry"), frame(2, "c *Cache", "drop")),
			w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")),
			r(1, at("v, ok := c.m[k] // drop", "["), frame(1, "c *Cache", "Expiry"), frame(3, "c *Cache", "drop")),
		}, false},
		{"a range's delete, another's lookup of one key, then the next step's delete: each entry is before or after", []Event{
			w(1, at("delete(c.m, k) // dropped", "("), frame(1, "c *Cache", "Expiry"), frame(2, "c *Cache", "drop")),
			r(2, at("v, ok := c.m[k]", "["), frame(9, "c *Cache", "load")),
			w(1, at("delete(c.m, k) // dropped", "("), frame(1, "c *Cache", "Expiry"), frame(3, "c *Cache", "drop")),
		}, false},
		{"a range's delete, another's len of the map, then the next step's delete: an intermediate count", []Event{
			w(1, at("delete(c.m, k) // dropped", "("), frame(1, "c *Cache", "Expiry"), frame(2, "c *Cache", "drop")),
			r(2, at("if n := len(c.m); n > 0 { // size", "("), frame(9, "c *Cache", "Size")),
			w(1, at("delete(c.m, k) // dropped", "("), frame(1, "c *Cache", "Expiry"), frame(3, "c *Cache", "drop")),
		}, true},
		{"a range's write, another's insert, then a read back of that key in the same step", []Event{
			w(1, at("func (c *Cache) zero(k string) { c.m[k] = 0 }", "["), frame(1, "c *Cache", "Twice"), frame(2, "c *Cache", "zero")),
			w(2, at("c.m[k] = v", "["), frame(9, "c *Cache", "store")),
			r(1, at("if c.m[k] > 0 { // peek", "["), frame(1, "c *Cache", "Twice"), frame(3, "c *Cache", "peek")),
		}, true},
		{"a lock-free miss, then meta read again under the lock and re-checked: the re-read decides", []Event{
			r(1, at("if atomic.LoadUint64(&t.meta)&1 != 0 { // fast", "("), frame(1, "t *Table", "Lookup")),
			w(2, at("atomic.StoreUint64(&t.meta, 1)", "("), frame(9, "t *Table", "Publish")),
			onVar(1, r(1, at("return t.val // re-validated", "val"), frame(1, "t *Table", "Lookup"))),
		}, false},
		{"a lock-free miss, then meta read again under the lock but only returned: no re-check", []Event{
			r(1, at("if atomic.LoadUint64(&t.meta)&1 != 0 { // blind", "("), frame(1, "t *Table", "Blind")),
			w(2, at("atomic.StoreUint64(&t.meta, 1)", "("), frame(9, "t *Table", "Publish")),
			onVar(1, r(1, at("return t.val, t.meta // blind", "val"), frame(1, "t *Table", "Blind"))),
		}, true},
		{"an unlocked bound check, then the counter re-read only to be bumped under the lock", []Event{
			r(1, at("if atomic.LoadInt64(&c.n) < c.max {", "("), frame(1, "c *Bounded", "Inc")),
			w(2, at("c.n = c.n + 1 // bump", "n ="), frame(9, "c *Bounded", "Inc")),
			w(1, at("c.n = c.n + 1 // bump", "n ="), frame(1, "c *Bounded", "Inc")),
		}, true},
		{"an unlocked bound check, then the counter re-checked and the fresh value bumped under the lock", []Event{
			r(1, at("if atomic.LoadInt64(&c.n) < c.max {", "("), frame(1, "c *Bounded", "IncChecked")),
			w(2, at("c.n = c.n + 1 // checked", "n ="), frame(9, "c *Bounded", "IncChecked")),
			w(1, at("c.n = c.n + 1 // checked", "n ="), frame(1, "c *Bounded", "IncChecked")),
		}, false},
		{"a re-check under the lock, but the value loaded before written back", []Event{
			r(1, at("if v := atomic.LoadInt64(&c.n); v < c.max {", "("), frame(1, "c *Bounded", "IncStale")),
			w(2, at("c.n = v + 1 // stale", "n ="), frame(9, "c *Bounded", "IncStale")),
			w(1, at("c.n = v + 1 // stale", "n ="), frame(1, "c *Bounded", "IncStale")),
		}, true},
		{"an idle check, then closed tested afresh, which the check's snapshot held (redigo's GetContext)", []Event{
			seen(r(1, at("if len(p.idle) > 0 { // idle check", "idle"), frame(1, "p *Conns", "Get")), 1),
			onVar(1, w(2, at("p.closed = true", "closed"), frame(9, "p *Conns", "Close"))),
			w(2, at("p.idle = nil", "idle"), frame(9, "p *Conns", "Close")),
			onVar(1, r(1, at("if !p.closed { // closed re-check", "closed"), frame(1, "p *Conns", "Get"))),
		}, false},
		{"an idle check, then closed tested, which the check's snapshot did not hold", []Event{
			r(1, at("if len(p.idle) > 0 { // idle check", "idle"), frame(1, "p *Conns", "Get")),
			onVar(1, w(2, at("p.closed = true", "closed"), frame(9, "p *Conns", "Close"))),
			w(2, at("p.idle = nil", "idle"), frame(9, "p *Conns", "Close")),
			onVar(1, r(1, at("if !p.closed { // closed re-check", "closed"), frame(1, "p *Conns", "Get"))),
		}, true},
		{"a slot taken after the check under its lock: the check's value is claimed", []Event{
			claimed(r(1, at("if len(p.idle) > 0 { // idle check", "idle"), frame(1, "p *Conns", "Get"))),
			w(2, at("p.idle = nil", "idle"), frame(9, "p *Conns", "Close")),
			onVar(1, r(1, at("if !p.closed { // closed re-check", "closed"), frame(1, "p *Conns", "Get"))),
		}, false},
		{"a slot taken and given back: the count between is the reservation", []Event{
			w(1, at("p.active++", "active"), frame(1, "p *Conns", "Get")),
			r(2, at("return p.active >= 2 // busy", "active"), frame(9, "p *Conns", "Busy")),
			w(1, at("p.active--", "active"), frame(1, "p *Conns", "Get")),
		}, false},
		{"a re-check through the fast path's helper: the helper's body is no flow from the first read", []Event{
			r(1, at("if mark(atomic.LoadUint64(&t.meta)) != 0 { // marked fast", "(&t.meta"), frame(1, "t *Marked", "Lookup")),
			w(2, at("atomic.StoreUint64(&t.meta, 1)", "("), frame(9, "t *Marked", "Publish")),
			onVar(1, r(1, at("return t.vals[m] // marked", "["), frame(1, "t *Marked", "Lookup"))),
		}, false},
		{"RDCSS: a descriptor CASed in, a helper's CAS, then the retry loop's load", []Event{
			rmw(1, rootCas, install, casIn(2)), rmw(2, rootCas, helper...),
			r(1, call("// retry load", "LoadPointer"), install, complete),
		}, false},
		{"RDCSS: a descriptor CASed in, a helper's CAS, then the retry loop's CAS", []Event{
			reread(rmw(1, rootCas, install, casIn(2)), 2), rmw(2, rootCas, helper...),
			rmw(1, rootCas, install, complete, casIn(4)),
		}, false},
		{"RDCSS: a descriptor CASed in, a helper's CAS, then the next install's retry loop's CAS", []Event{
			rmw(1, rootCas, swap, frame(2, "r *Root", "Install"), casIn(3)), rmw(2, rootCas, helper...),
			rmw(1, rootCas, swap, frame(4, "r *Root", "Install"), frame(5, "r *Root", "complete"), casIn(6)),
		}, false},
		{"a CAS, then the next install's CAS read back once, no retry", []Event{
			rmw(1, rootCas, swapOnce, frame(2, "r *Root", "InstallOnce"), casIn(3)), rmw(2, rootCas, helper...),
			rmw(1, rootCas, swapOnce, frame(4, "r *Root", "InstallOnce"), frame(5, "r *Root", "completeOnce"), casIn(6)),
		}, true},
		{"a load read back once, no retry: a failed CAS returns it", []Event{
			rmw(1, rootCas, installOnce, casIn(2)), rmw(2, rootCas, helper...),
			r(1, call("// once load", "LoadPointer"), installOnce, completeOnce),
		}, true},
		{"a CAS read back once, no retry: its failure returns the load", []Event{
			reread(rmw(1, rootCas, installOnce, casIn(2)), 2), rmw(2, rootCas, helper...),
			rmw(1, rootCas, installOnce, completeOnce, casIn(4)),
		}, true},
		{"ctrie's snapshot: a load two calls down, another's CAS, then the RDCSS CAS from it two calls down, retried on failure", trie("Snapshot", "rdcss"), false},
		{"ctrie's snapshot: a load two calls down, its RDCSS CAS from it, another's CAS, then the completion's retry loop's CAS", trieComplete("Snapshot", "rdcss"), false},
		{"a load two calls down, then a retry loop's CAS entered after a CAS from it failed", trieComplete("SnapshotHelp", "rdcssHelp"), true},
		{"a load two calls down, then a CAS from it whose failure gives up", trie("SnapshotOnce", "rdcss"), true},
		{"a load two calls down, then a CAS from it whose failure the wrapper returns as true", trie("SnapshotLoose", "rdcssLoose"), true},
		{"a load two calls down deciding a CAS from another value", trie("SnapshotPrev", "rdcss"), true},
		{"Selectable: a stale filled flag decides the wait on the channel read under the lock, which Fill closed and replaced by a closed one", future("Future", "Get", "wchan", "fast", "lazy"), false},
		{"a stale filled flag decides a send on the channel read under the lock", future("Future", "Offer", "offerChan", "offer", "offer lazy"), true},
		{"a stale filled flag decides the wait on a channel the writer replaced by a fresh one", future("FreshFuture", "Get", "wchan", "fast", "lazy"), true},
		{"a stale filled flag decides the wait on a channel the writer replaced by a package channel never closed", future("OpenFuture", "Get", "wchan", "fast", "lazy"), true},
		{"a stale filled flag decides the wait on a channel the writer replaced without closing the old one", future("LeakFuture", "Get", "wchan", "fast", "lazy"), true},
		{"a lazily made map, then another caller's lookup in it and its store's size check, then the unit's store", lazy("make(map[string]*flightCall) // lazy", "Load"), false},
		{"a map made with an entry in it", lazy("map[string]*flightCall{\"\": new(flightCall)} // seeded", "LoadSeeded"), true},
		{"a map made under the lock again after the nil check's unlock", lazy("make(map[string]*flightCall) // late", "LoadLate"), true},
		{"a map made without the lock", lazy("make(map[string]*flightCall) // bare", "LoadBare"), true},
		{"a map made under a read lock", lazy("make(map[string]*flightCall) // shared", "LoadShared"), true},
		{"a map made under a mutex passed in", lazy("make(map[string]*flightCall) // under", "LoadUnder"), true},
		// cep21/circuit's MetricEventStream: the map made by the
		// function a sync.Once runs, then registered into under the lock;
		// another goroutine's len between sees what nil would show.
		{"a map made by a once's function, then another's len of it, then the unit's register", streams("Streams", "streams"), false},
		{"a map made by a once's function and replaced elsewhere", streams("ResetStreams", "reset streams"), true},
		{"a map made by a once's function also called directly", streams("DirectStreams", "direct streams"), true},
		{"a lazily made map told from nil by the reader", []Event{
			w(1, at("l.m = make(map[string]*flightCall) // lazy", "m ="), loader("Load", 1)),
			r(2, at("ready := l.m != nil // ready", "m !="), loader("Count", 9)),
			onVar(1, r(2, at("return len(l.items) // count", "("), loader("Count", 9), loader("count", 10))),
			onVar(1, w(1, at("l.items[key] = 1 // stored", "["), loader("Load", 1), loader("store", 2))),
		}, true},
		// A read at the top of a loop's round, after the last round's
		// write (go-events' retry loop, bytedance's consumer): the
		// next round is a new unit, which reads the shared state as
		// the first round did; a read-back later in the round stays.
		{"a retry loop's Proceed through an interface, after the last try's Failure and another's", []Event{
			rmw(1, at("t.recent++ // tally failure", "recent"), frame(2, "t *Tally", "Failure")),
			rmw(2, at("t.recent++ // tally failure", "recent"), frame(9, "t *Tally", "Failure")),
			r(1, at("return t.recent < 3 // tally proceed", "recent"), frame(3, "t *Tally", "Proceed")),
		}, false},
		{"a retry loop's load at the top of the next round, after its add and another's", []Event{
			rmw(1, call("// backoff add", "Add"), frame(1, "t *Tally", "Backoff")),
			rmw(2, call("// backoff add", "Add"), frame(9, "t *Tally", "Backoff")),
			r(1, call("// backoff load", "Load"), frame(1, "t *Tally", "Backoff")),
		}, false},
		{"a retry loop's failure, another's Proceed reading the count, then the next try's failure", []Event{
			rmw(1, at("t.recent++ // tally failure", "recent"), frame(2, "t *Tally", "Failure")),
			r(2, at("return t.recent < 3 // tally proceed", "recent"), frame(9, "t *Tally", "Proceed")),
			rmw(1, at("t.recent++ // tally failure", "recent"), frame(3, "t *Tally", "Failure")),
		}, false},
		{"a loop's load after its add in the same round, another's add between", []Event{
			rmw(1, call("// count add", "Add"), frame(1, "t *Tally", "Count")),
			rmw(2, call("// count add", "Add"), frame(9, "t *Tally", "Count")),
			r(1, call("// count load", "Load"), frame(1, "t *Tally", "Count")),
		}, true},
		{"a consumer's wait for an item at the top of the next round, after its take and a push", []Event{
			w(1, at("q.items = q.items[1:] // queue take", "items ="), frame(1, "q *Queue", "Consume"), frame(2, "q *Queue", "take")),
			w(2, at("q.items = append(q.items, v) // queue push", "items ="), frame(9, "q *Queue", "Push")),
			r(1, at("for len(q.items) == 0 { // queue len", "items"), frame(1, "q *Queue", "Consume")),
		}, false},
		{"a take, a push, then the length read back in the same round", []Event{
			w(1, at("q.items = q.items[1:] // queue take", "items ="), frame(1, "q *Queue", "Drop"), frame(2, "q *Queue", "take")),
			w(2, at("q.items = append(q.items, v) // queue push", "items ="), frame(9, "q *Queue", "Push")),
			r(1, at("if len(q.items) == 0 { // queue left", "items"), frame(1, "q *Queue", "Drop")),
		}, true},
		// A read only tested, then the unit's blind write or add: the
		// write sets the variable whatever it holds (go-cron's reset,
		// go-events' increment and add); a read handed on as data
		// before the reset loses what another counted (Take).
		{"a count tested for the delay, another's failure, then the unit's increment", []Event{
			r(1, at("if b.recent < 3 { // backer proceed", "recent"), frame(1, "b *Backer", "Write"), frame(2, "b *Backer", "Proceed")),
			w(2, at("b.recent++ // backer failure", "recent"), frame(9, "b *Backer", "Write"), frame(10, "b *Backer", "Failure")),
			w(1, at("b.recent++ // backer failure", "recent"), frame(1, "b *Backer", "Write"), frame(3, "b *Backer", "Failure")),
		}, false},
		{"a count loaded for the delay, another's add, then the unit's add", []Event{
			r(1, call("// backer load", "Load"), frame(1, "b *Backer", "Send"), frame(2, "b *Backer", "Wait")),
			rmw(2, call("// backer add", "Add"), frame(9, "b *Backer", "Send"), frame(10, "b *Backer", "Fail")),
			rmw(1, call("// backer add", "Add"), frame(1, "b *Backer", "Send"), frame(3, "b *Backer", "Fail")),
		}, false},
		{"a failure count tested, another's failure, then the success's reset to 0", []Event{
			r(1, call("// circuit check", "LoadInt64"), frame(1, "j Job", "Run"), frame(2, "s *Circuit", "isOpen")),
			rmw(2, call("// circuit fail", "AddInt64"), frame(9, "j Job", "Run"), frame(10, "s *Circuit", "fail")),
			w(1, call("// circuit reset", "StoreInt64"), frame(1, "j Job", "Run"), frame(3, "s *Circuit", "reset")),
		}, false},
		{"a failure count returned, another's failure, then the reset to 0", []Event{
			r(1, call("// circuit take", "LoadInt64"), frame(1, "s *Circuit", "Take")),
			rmw(2, call("// circuit fail", "AddInt64"), frame(9, "s *Circuit", "fail")),
			w(1, call("// circuit taken", "StoreInt64"), frame(1, "s *Circuit", "Take")),
		}, true},
		// Kept on purpose (issue 26): waiving go-cron's retry.go:259
		// and go-events' retry.go:167 and :224 because their writes
		// commute would hide the real bugs below (those reports went
		// by other rules: a read only tested is no lost write's, and a
		// loop's next round is a new unit). Two stores of one constant
		// commute, but a unit that decided on the value before the
		// other's store acts twice, and two Drains that read before
		// either reset both return the count (a lost write judged by
		// its written value alone is Drain's lost count above); adds
		// commute, but a read-back after one's own add in another
		// critical section or atomic operation sees the other's add
		// too, and two callers get one number, even when the
		// read-back is only compared with a constant.
		{"a check, another's store of the constant, then the unit's store of it: both fire", []Event{
			r(1, at("armed := g.armed // trigger check", "armed //"), frame(1, "g *Trigger", "Fire")),
			w(2, at("g.armed = false // trigger disarm", "armed ="), frame(9, "g *Trigger", "Fire")),
			w(1, at("g.armed = false // trigger disarm", "armed ="), frame(1, "g *Trigger", "Fire")),
		}, true},
		{"read, then reset, with another's reset of the same constant between: both return the count", []Event{
			r(1, at("n := cb.requests", "requests"), frame(1, "cb *Breaker", "Drain")),
			w(2, at("cb.requests = 0", "requests"), frame(9, "cb *Breaker", "Drain")),
			w(1, at("cb.requests = 0", "requests"), frame(1, "cb *Breaker", "Drain")),
		}, true},
		{"an increment, another's, then the count read back in a second critical section and returned", []Event{
			rmw(1, at("s.n++ // seq bump", "n++"), frame(1, "s *Seq", "Next"), frame(2, "s *Seq", "bump")),
			rmw(2, at("s.n++ // seq bump", "n++"), frame(9, "s *Seq", "Next"), frame(10, "s *Seq", "bump")),
			r(1, at("return s.n // seq cur", "n //"), frame(1, "s *Seq", "Next"), frame(3, "s *Seq", "cur")),
		}, true},
		{"an atomic add, another's, then a load returned", []Event{
			rmw(1, call("// seq add", "Add"), frame(1, "s *Seq", "NextAtomic")),
			rmw(2, call("// seq add", "Add"), frame(9, "s *Seq", "NextAtomic")),
			r(1, call("// seq load", "Load"), frame(1, "s *Seq", "NextAtomic")),
		}, true},
		{"an atomic add, another's, then a load compared with a constant", []Event{
			rmw(1, call("// first add", "Add"), frame(1, "s *Seq", "FirstFailure")),
			rmw(2, call("// first add", "Add"), frame(9, "s *Seq", "FirstFailure")),
			r(1, call("// first load", "Load"), frame(1, "s *Seq", "FirstFailure")),
		}, true},
		// go-limiter's Take: the publisher's take and the reader's are
		// calls of one method on the published bucket.
		{"a new bucket published, then used as any caller does", []Event{
			w(1, at("s.data[key] = b // limits publish", "["), frame(1, "s *Limits", "Take")),
			r(2, at("if b, ok := s.data[key]; ok { // limits lookup", "["), frame(9, "s *Limits", "Take")),
			onVar(1, r(2, at("if b.available > 0 { // bucket check", "available"), frame(9, "s *Limits", "Take"), frame(10, "b *tokenBucket", "take"))),
			onVar(1, rmw(1, at("b.available-- // bucket take", "available"), frame(1, "s *Limits", "Take"), frame(2, "b *tokenBucket", "take"))),
		}, false},
		{"an empty bucket published, then filled by another method", []Event{
			w(1, at("s.data[key] = b // limits publish empty", "["), frame(1, "s *Limits", "TakeHalf")),
			r(2, at("if b, ok := s.data[key]; ok { // limits lookup", "["), frame(9, "s *Limits", "Take")),
			onVar(1, r(2, at("if b.available > 0 { // bucket check", "available"), frame(9, "s *Limits", "Take"), frame(10, "b *tokenBucket", "take"))),
			onVar(1, w(1, at("b.available = n // bucket fill", "available"), frame(1, "s *Limits", "TakeHalf"), frame(2, "b *tokenBucket", "fill"))),
		}, true},
		// ttlcache's SetWithTTL: the root read, then notify's fresh test
		// of the flag under the re-taken lock, a wake-up whose receiver
		// re-reads the queue.
		{"a stale check deciding a wake-up that re-tests its flag under the lock", []Event{
			r(1, at("first := e.queue[0] // expirer root", "["), frame(1, "e *Expirer", "Set")),
			w(2, at("e.queue = e.queue[1:] // expirer pop", "queue ="), frame(9, "e *Expirer", "Loop")),
			onVar(1, w(2, at("e.notified = false // expirer reset", "notified"), frame(9, "e *Expirer", "Loop"))),
			onVar(1, r(1, at("if e.notified { // expirer flag", "notified"), frame(1, "e *Expirer", "Set"), frame(2, "e *Expirer", "notify"))),
		}, false},
		{"a stale check deciding a call that re-tests a flag, then pops", []Event{
			r(1, at("first := e.queue[0] // expirer poke root", "["), frame(1, "e *Expirer", "Poke")),
			w(2, at("e.queue = e.queue[1:] // expirer pop", "queue ="), frame(9, "e *Expirer", "Loop")),
			onVar(1, w(2, at("e.busy = true", "busy"), frame(9, "e *Expirer", "consume"))),
			onVar(1, r(1, at("if e.busy { // expirer busy", "busy"), frame(1, "e *Expirer", "Poke"), frame(2, "e *Expirer", "consume"))),
		}, true},
		{"a stale check deciding a wake-up whose receiver does not re-read", []Event{
			r(1, at("first := p.queue[0] // pinger root", "["), frame(1, "p *Pinger", "Set")),
			w(2, at("p.queue = append(p.queue, v)", "queue ="), frame(9, "p *Pinger", "Set")),
			onVar(1, w(2, at("p.notified = false // pinger reset", "notified"), frame(9, "p *Pinger", "Loop"))),
			onVar(1, r(1, at("if p.notified { // pinger flag", "notified"), frame(1, "p *Pinger", "Set"), frame(2, "p *Pinger", "notify"))),
		}, true},
		// pond's subpool worker leaving, against a submitter whose check
		// of one count decides a blind add to the other: the two adds
		// commute. An audit reading both counts stays judged.
		{"two counts given back, a check of one deciding a blind add to the other", []Event{
			rmw(1, call("p.sub.Add(-1)    // pools leave sub", "Add"), frame(1, "p *Pools", "Leave")),
			r(2, call("if p.sub.Load() < max { // pools check", "Load"), frame(9, "p *Pools", "Submit")),
			onVar(1, rmw(2, call("p.parent.Add(1) // pools join parent", "Add"), frame(9, "p *Pools", "Submit"))),
			onVar(1, rmw(1, call("p.parent.Add(-1) // pools leave parent", "Add"), frame(1, "p *Pools", "Leave"))),
		}, false},
		{"two counts given back, read by an audit summing them, the second first", []Event{
			rmw(1, call("p.sub.Add(-1)    // pools leave sub", "Add"), frame(1, "p *Pools", "Leave")),
			onVar(1, r(2, call("q := p.parent.Load()", "Load"), frame(9, "p *Pools", "AuditBack"))),
			r(2, call("return q + p.sub.Load() // pools audit back sub", "Load"), frame(9, "p *Pools", "AuditBack")),
			onVar(1, rmw(1, call("p.parent.Add(-1) // pools leave parent", "Add"), frame(1, "p *Pools", "Leave"))),
		}, true},
		{"two counts given back, read by an audit summing them", []Event{
			rmw(1, call("p.sub.Add(-1)    // pools leave sub", "Add"), frame(1, "p *Pools", "Leave")),
			r(2, call("s := p.sub.Load()", "Load"), frame(9, "p *Pools", "Audit")),
			onVar(1, r(2, call("return s + p.parent.Load() // pools audit parent", "Load"), frame(9, "p *Pools", "Audit"))),
			onVar(1, rmw(1, call("p.parent.Add(-1) // pools leave parent", "Add"), frame(1, "p *Pools", "Leave"))),
		}, true},
		// asynccache's Get against a refresh: the error stored is nil on
		// the refresh's path, so the torn pair is a serial order's result
		// under Go's error convention; a store of a value with an error
		// stays judged.
		{"a value and its error returned torn, the writer's error nil", entry("Refresh"), false},
		{"a value and its error returned torn, the writer's error not nil", entry("Fail"), true},
		{"the unit's value and error read torn, the writer's error nil", unitEntry("Refresh"), false},
		{"the unit's value and error read torn, the writer's error not nil", unitEntry("Fail"), true},
		{"the unit's error tested, then the value read on its nil branch, the writer's error nil", guardEntry("Refresh", "GetOr", "entry guarded value", "return e.val.Load()"), false},
		{"the unit's error tested, then the value read on its nil branch, the writer's error not nil", guardEntry("Fail", "GetOr", "entry guarded value", "return e.val.Load()"), true},
		{"the unit's error tested, then the value read whatever it was", guardEntry("Refresh", "GetOrLoose", "entry loose value", "return e.val.Load(), failed"), true},
		{"the writer's stores around an error test and the value read on its nil branch, the writer's error nil", writerGuardEntry("Refresh", "GetOr", "entry guarded value", "return e.val.Load()"), false},
		{"the writer's stores around an error test and the value read on its nil branch, the writer's error not nil", writerGuardEntry("Fail", "GetOr", "entry guarded value", "return e.val.Load()"), true},
		{"the writer's stores around an error test and the value read whatever it was", writerGuardEntry("Refresh", "GetOrLoose", "entry loose value", "return e.val.Load(), failed"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeAddedAhead: moby/locker's Lock (dep.go's Names) finds the
// name's entry and adds itself as a waiter (names lookup, names add)
// between another Lock's add and its Unlock's delete. Both adds drop
// their results and nothing wrote the map between the unit's add and
// the lookup (Event.Prior empty): the reader read the state before both
// writes, and it took its add back and let its locks go before the
// delete (Event.GivenBack; addedAhead). A reader still counted at the
// delete (an entry deleted under a waiter), a write of the map between
// (the Prior not empty, or not known), or a reader that keeps its add's
// result, stays judged.
func TestJudgeAddedAhead(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	frame := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (n *Names) "+name+"(", name)}
	}
	// back is the reader's add's GivenBack.
	evs := func(reader, lookup, add string, prior []Touch, back bool) []Event {
		rf := frame(9, reader)
		return []Event{
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: call("// names add", "AddInt32"), Frames: []Frame{frame(1, "Lock")}, Step: 1},
			{Thread: 2, Unit: 2, Var: 1, Read: true, Site: at(lookup, "["), Frames: []Frame{rf}, Step: 2, Prior: prior},
			{Thread: 2, Unit: 2, Read: true, Write: true, Site: call(add, "AddInt32"), Frames: []Frame{rf}, Step: 3, GivenBack: back},
			{Thread: 1, Unit: 1, Var: 1, Write: true, Site: at("// names delete", "("), Frames: []Frame{frame(1, "Unlock")}, Step: 4},
		}
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a blind add between the unit's blind add and its delete, nothing written between, given back", evs("Lock", "// names lookup", "// names add", []Touch{}, true), false},
		{"the reader still counted at the delete", evs("Lock", "// names lookup", "// names add", []Touch{}, false), true},
		{"the map written between", evs("Lock", "// names lookup", "// names add", []Touch{{Step: 2, Site: at("// names create", "["), G: "g3"}}, true), true},
		{"the writes between not known", evs("Lock", "// names lookup", "// names add", nil, true), true},
		{"the reader keeps its add's result", evs("LockCounted", "// names counted lookup", "// names counted add", []Touch{}, true), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := x.Judge(c.evs)
			if v.Holds != c.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, c.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeStaleAdd: a load whose value the unit returns as the one its
// atomic add replaced (go-commons-pool's GetAndIncrement), with another
// goroutine's add between, holds; but nothing is overwritten, so the
// verdict must not call it a lost write.
func TestJudgeStaleAdd(t *testing.T) {
	x, at := index(t)
	next := func(id int32) Frame { return Frame{ID: id, Site: at("func (t *Ticket) Next(", "Next")} }
	load := at("ret := atomic.LoadInt32(&t.n)", "(")
	add := at("atomic.AddInt32(&t.n, 1)", "(")
	v := x.Judge([]Event{
		{Thread: 1, Unit: 1, Read: true, Site: load, Frames: []Frame{next(1)}},
		{Thread: 2, Unit: 2, Read: true, Write: true, Site: add, Frames: []Frame{next(9)}},
		{Thread: 1, Unit: 1, Read: true, Write: true, Site: add, Frames: []Frame{next(1)}},
	})
	if !v.Holds || v.Kind != "stale result" || strings.Contains(v.Why, "lost") {
		t.Errorf("Judge = %v, %q: %s; want a stale result, no write lost", v.Holds, v.Kind, v.Why)
	}
}

// TestJudgeTestsEmpty: a unit that appends and then, in a critical
// section of its own, only tests the slice for empty reads back nothing
// it takes for its own (benbjohnson/clock's Timer and runNextTimer); one
// that takes the length for its own entry's index, or appends a slice
// that may be empty, stays a stale read-back.
func TestJudgeTestsEmpty(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (q *Timers) "+name+"(", name)} }
	w := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: site, Frames: frs}
	}
	r := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: frs}
	}
	appendSite := at("// timers append", "list") // Add's, the first of the three
	other := w(2, appendSite, fr(9, "Add"))
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"appended, then tested for empty", []Event{
			w(1, appendSite, fr(1, "Add")), other,
			r(1, at("// timers empty", "list"), fr(1, "Add"), fr(2, "Next")),
		}, false},
		{"appended, then the length taken for its own index", []Event{
			w(1, at("// timers append index", "list"), fr(1, "AddIndex")), other,
			r(1, at("// timers own index", "list"), fr(1, "AddIndex")),
		}, true},
		{"a slice that may be empty appended, then tested for empty", []Event{
			w(1, at("// timers append all", "list"), fr(1, "AddAll")), other,
			r(1, at("// timers any", "list"), fr(1, "AddAll")),
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeDrainTake: a unit that appends to a queue and then drains it,
// taking heads until it finds it empty (qmuntal/stateless's queued
// Fire), reads back no value of its own; one that takes the head once as
// its own reply, or pops the tail, stays a stale read-back.
func TestJudgeDrainTake(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (q *Jobs) "+name+"(", name)} }
	w := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: site, Frames: frs}
	}
	r := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: frs}
	}
	other := w(2, at("// jobs append", "list"), fr(9, "Fire"))
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"appended, then fetched in a drain (empty test)", []Event{
			w(1, at("// jobs append", "list"), fr(1, "Fire")), other,
			r(1, at("// jobs empty", "list"), fr(1, "Fire"), fr(2, "fetch")),
		}, false},
		{"appended, then fetched in a drain (head taken)", []Event{
			w(1, at("// jobs append", "list"), fr(1, "Fire")), other,
			r(1, at("// jobs head", "list[0]"), fr(1, "Fire"), fr(2, "fetch")),
		}, false},
		{"a head taken, then the next round's test for empty", []Event{
			w(1, at("// jobs head", "list"), fr(1, "Fire"), fr(2, "fetch")), other,
			r(1, at("// jobs empty", "list"), fr(1, "Fire"), fr(3, "fetch")),
		}, false},
		{"appended, then drained in a loop of its own", []Event{
			w(1, at("// jobs append drain", "list"), fr(1, "Drain")), other,
			r(1, at("// jobs drain head", "list"), fr(1, "Drain")),
		}, false},
		{"appended, then the head taken once as its own reply", []Event{
			w(1, at("// jobs append call", "list"), fr(1, "Call")), other,
			r(1, at("// jobs head", "list[0]"), fr(1, "Call"), fr(2, "fetch")),
		}, true},
		{"appended, then the tail popped", []Event{
			w(1, at("// jobs append pop", "list"), fr(1, "Pop")), other,
			r(1, at("// jobs tail", "list"), fr(1, "Pop")),
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeDrainClaim: another Fire that reads the queue and claims the
// drain between a Fire's append and its own claim at the same CAS takes
// over the producer's next step (qmuntal/stateless modes.go:66 asv); a
// count kept apart from the queue, read between the append and its
// increment, stays an inconsistent snapshot.
func TestJudgeDrainClaim(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (q *Firer) "+name+"(", name+"(")}
	}
	list, firing, n := 1, 2, 3
	ev := func(u, v int, rd, wr bool, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: rd, Write: wr, Site: site, Frames: frs}
	}
	claim := at("// firer claim", "(false")
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"append, another's test and claim, own claim", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "Fire")),
			ev(2, list, true, false, at("// firer empty", "list"), fr(2, "Fire"), fr(3, "fetch")),
			ev(2, firing, true, true, claim, fr(2, "Fire"), fr(3, "fetch")),
			ev(1, firing, true, true, claim, fr(1, "Fire"), fr(4, "fetch")),
		}, false},
		{"append, another's claim and take, own claim", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "Fire")),
			ev(2, firing, true, true, claim, fr(2, "Fire"), fr(3, "fetch")),
			ev(2, list, true, false, at("// firer take", "list[0]"), fr(2, "Fire"), fr(3, "fetch")),
			ev(1, firing, true, true, claim, fr(1, "Fire"), fr(4, "fetch")),
		}, false},
		{"append, another's test and release, own claim", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "Fire")),
			ev(2, list, true, false, at("// firer empty", "list"), fr(2, "Fire"), fr(3, "fetch")),
			ev(2, firing, true, true, at("// firer release", "(false"), fr(2, "Fire")),
			ev(1, firing, true, true, claim, fr(1, "Fire"), fr(4, "fetch")),
		}, false},
		{"append from inside the drain, another's test and claim, own release", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "Fire"), fr(5, "run"), fr(6, "Fire")),
			ev(2, list, true, false, at("// firer empty", "list"), fr(2, "Fire"), fr(3, "fetch")),
			ev(2, firing, true, true, claim, fr(2, "Fire"), fr(3, "fetch")),
			ev(1, firing, true, true, at("// firer run release", "(false"), fr(1, "Fire"), fr(5, "run")),
		}, false},
		{"append, another's test and release, own release", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "Fire")),
			ev(2, list, true, false, at("// firer empty", "list"), fr(2, "Fire"), fr(3, "fetch")),
			ev(2, firing, true, true, at("// firer run release", "(false"), fr(2, "Fire"), fr(7, "run")),
			ev(1, firing, true, true, at("// firer run release", "(false"), fr(1, "Fire"), fr(5, "run")),
		}, false},
		{"append, another's test and claim, a release no take follows", []Event{
			ev(1, list, false, true, at("// firer append", "list"), fr(1, "FireLate"), fr(5, "run"), fr(6, "Fire")),
			ev(2, list, true, false, at("// firer empty", "list"), fr(2, "Fire"), fr(3, "fetch")),
			ev(2, firing, true, true, claim, fr(2, "Fire"), fr(3, "fetch")),
			ev(1, firing, true, true, at("// firer run release", "(false"), fr(1, "FireLate"), fr(5, "run")),
		}, true},
		{"append, another's test and count, own count", []Event{
			ev(1, list, false, true, at("// firer put", "list"), fr(1, "Put")),
			ev(2, list, true, false, at("// firer take empty", "list"), fr(2, "Take")),
			ev(2, n, true, true, at("// firer uncount", "n"), fr(2, "Take")),
			ev(1, n, true, true, at("// firer count", "n"), fr(1, "Put")),
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeOverwrite: a Fire's claim of the drain is no stale check when
// the Fire released the claim itself before another Fire's claim
// (qmuntal/stateless modes.go:66 asv): its read of firing was replaced by
// its own write, so the other claim changes no value it used. A release
// after the other's claim, or none, leaves the check stale.
func TestJudgeOverwrite(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (q *Firer) "+name+"(", name+"(")}
	}
	list, firing := 1, 2
	claim := at("// firer claim", "(false")
	evs := func(overwrite int) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Var: list, Write: true, Site: at("// firer append", "list"), Frames: []Frame{fr(1, "Fire")}, Step: 216},
			{Thread: 2, Unit: 2, Var: firing, Read: true, Write: true, Site: claim, Frames: []Frame{fr(2, "Fire"), fr(3, "fetch")}, Step: 220, Overwrite: overwrite},
			{Thread: 1, Unit: 1, Var: firing, Read: true, Write: true, Site: claim, Frames: []Frame{fr(1, "Fire"), fr(4, "fetch")}, Step: 317},
			{Thread: 2, Unit: 2, Var: list, Read: true, Site: at("// firer empty", "list"), Frames: []Frame{fr(2, "Fire"), fr(5, "fetch")}, Step: 326},
		}
	}
	for _, c := range []struct {
		name      string
		overwrite int
		want      bool
	}{
		{"no write of its own", 0, true},
		{"released before the other's claim", 310, false},
		{"released after the other's claim", 320, true},
	} {
		v := x.Judge(evs(c.overwrite))
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeReleaseRetaken: a Fire whose claim of the drain fails while
// another holds it leaves its job to the holder, whose drain fetches
// again after its release (qmuntal/stateless modes.go:77 av): no
// intermediate state is used. A holder that releases after its last
// look at the queue (FireLate's last run, FireCheckFirst) strands the
// job: judged.
func TestJudgeReleaseRetaken(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (q *Firer) "+name+"(", name+"(")}
	}
	firing := 2
	ev := func(u int, rd, wr bool, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Var: firing, Read: rd, Write: wr, Site: site, Frames: frs}
	}
	claim, release := at("// firer claim", "(false"), at("// firer run release", "(false")
	early, earlyRelease := at("// firer early claim", "(false"), at("// firer early release", "(false")
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"claim, another's failed claim, release, fetch again", []Event{
			ev(1, true, true, claim, fr(1, "Fire"), fr(2, "fetch")),
			ev(2, true, false, claim, fr(3, "Fire"), fr(4, "fetch")),
			ev(1, true, true, release, fr(1, "Fire"), fr(5, "run")),
		}, false},
		{"claim, another's failed claim, a release no take follows", []Event{
			ev(1, true, true, claim, fr(1, "FireLate"), fr(2, "fetch")),
			ev(2, true, false, claim, fr(3, "Fire"), fr(4, "fetch")),
			ev(1, true, true, release, fr(1, "FireLate"), fr(5, "run")),
		}, true},
		{"claim, another's failed claim, release after the last look", []Event{
			ev(1, true, true, early, fr(1, "FireCheckFirst")),
			ev(2, true, false, early, fr(3, "FireCheckFirst")),
			ev(1, false, true, earlyRelease, fr(1, "FireCheckFirst")),
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeFreshEntry: tally's Subscope deletes a closed scope's key and
// inserts a fresh scope there; a Report ranging over the scopes between
// reports each (the fresh one's maps are empty) and acts on the closed
// ones (the fresh one's flag is zero): it read a map that differs from
// the one after the insert only by an entry it would have done nothing
// with (freshEntry). A range that counts, leaves the loop or sends, a
// scope inserted with a count in it, the old scope put back, a scope
// handed out before its insert, another key, or a write the schedule
// shows that could put the key back or fall after the read stays judged.
func TestJudgeFreshEntry(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (r *Registry) "+name+"(", name)}
	}
	site := func(mark string) string {
		col := "["
		if strings.Contains(mark, "delete") || strings.Contains(mark, "remove") || strings.Contains(mark, "take out") {
			col = "("
		}
		if strings.Contains(mark, "report") || strings.Contains(mark, "count") || strings.Contains(mark, "notify") || strings.Contains(mark, "find") || strings.Contains(mark, "any open") {
			col = "for"
		}
		return at("// registry "+mark, col)
	}
	const key = 7
	// evs is writer's first write at first, reader's range at read and
	// writer's second write at second, both of key k2 (the first of
	// key), in steps 1, 3 and 5; extra writes (step, site, key) are the
	// schedule's other writes of the map by the writer.
	evs := func(writer, first, second string, k2 int64, reader, read string, extra ...Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: site(first), Frames: []Frame{fr(1, writer)}, Key: key, Step: 1}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: site(second), Frames: []Frame{fr(1, writer)}, Key: k2, Step: 5}
		r := Event{Thread: 2, Unit: 2, Read: true, Site: site(read), Frames: []Frame{fr(9, reader)}, Step: 3}
		r.Writes = append([]Touch{{Step: 1, Site: a.Site, G: "g1"}}, extra...)
		r.Writes = append(r.Writes, Touch{Step: 5, Site: b.Site, G: "g1"})
		return []Event{a, r, b}
	}
	noSchedule := evs("Replace", "delete", "insert fresh", key, "Report", "report")
	noSchedule[1].Writes = nil
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a fresh scope replacing a deleted key, a report ranging between", evs("Replace", "delete", "insert fresh", key, "Report", "report"), false},
		{"the same, another delete between the delete and the read", evs("Replace", "delete", "insert fresh", key, "Report", "report", Touch{Step: 2, Site: site("remove again"), G: "g1"}), false},
		{"the same, no schedule", noSchedule, true},
		{"the same, an insert between the delete and the read", evs("Replace", "delete", "insert fresh", key, "Report", "report", Touch{Step: 2, Site: site("put back"), G: "g1"}), true},
		{"the same, another delete between the read and the insert", evs("Replace", "delete", "insert fresh", key, "Report", "report", Touch{Step: 4, Site: site("remove again"), G: "g1"}), true},
		{"a fresh scope inserted at another key than the one deleted", evs("Replace", "delete", "insert fresh", 8, "Report", "report"), true},
		{"a fresh scope replacing a deleted key, the scopes counted between", evs("Replace", "delete", "insert fresh", key, "Count", "count"), true},
		{"a fresh scope replacing a deleted key, each scope sent to between", evs("Replace", "delete", "insert fresh", key, "Notify", "notify"), true},
		{"a fresh scope replacing a deleted key, the first open scope's key returned between", evs("Replace", "delete", "insert fresh", key, "FindOpen", "find"), true},
		{"a fresh scope replacing a deleted key, a loop breaking at the first open scope between", evs("Replace", "delete", "insert fresh", key, "AnyOpen", "any open"), true},
		{"a scope with a count in it replacing a deleted key, a report between", evs("ReplaceFilled", "delete filled", "insert filled", key, "Report", "report"), true},
		{"the old scope taken out and put back, a report between", evs("ReplaceOld", "take out", "put back", key, "Report", "report"), true},
		{"a fresh scope handed out before its insert, a report between", evs("ReplaceShared", "delete shared", "insert shared", key, "Report", "report"), true},
		{"one key deleted twice, the scopes counted between", evs("Remove", "remove", "remove again", key, "Count", "count"), false},
		{"two keys deleted, the scopes counted between", evs("Remove", "remove", "remove again", 8, "Count", "count"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeBumpRechecked: a load after the unit's atomic add, only tested
// for equality with the same pure function of the add's result and
// retrying from the add when they differ, checks for others' adds and
// reads back no value of its own (ristretto's Allocate, allocator.go:291
// and :296); a read-back that gives up, is used as data, passes through a
// function that keeps it, or whose test decides no retry stays stale.
func TestJudgeBumpRechecked(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (b *Bump) "+name+"(", name)} }
	rmw := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Write: true, Site: site, Frames: frs}
	}
	r := func(u int, site string, frs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: frs}
	}
	shape := func(method, tag string) []Event {
		add := call("// "+tag+" add", "AddUint64")
		return []Event{
			rmw(1, add, fr(1, method)), rmw(2, add, fr(9, method)),
			r(1, call("// "+tag+" recheck", "LoadUint64"), fr(1, method)),
		}
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"re-read under the lock, compared by page with the add's, retried when moved", shape("Alloc", "bump"), false},
		{"the same, the other's add in another activation of the unit's method", []Event{
			rmw(1, call("// bump add", "AddUint64"), fr(1, "Alloc")),
			rmw(2, call("// giveup add", "AddUint64"), fr(9, "AllocGiveUp")),
			r(1, call("// bump recheck", "LoadUint64"), fr(1, "Alloc")),
		}, false},
		{"re-read compared, the unit gives up when moved", shape("AllocGiveUp", "giveup"), true},
		{"re-read's offset taken as the unit's span", shape("AllocUsed", "used"), true},
		{"re-read passed through a function that keeps it", shape("AllocNoted", "noted"), true},
		{"re-read compared with the add's result, the outcome returned", shape("AllocLast", "last"), true},
		// parse is pure: its result is its argument's per call. Through
		// its shared body, the re-read's value reached parse(pos)'s
		// result too, and the test of the next round's offset decided
		// that round's add.
		{"re-read under the lock, then another's add, then the next round's add: both sides of the test go round", []Event{
			r(1, call("// bump recheck", "LoadUint64"), fr(1, "Alloc")),
			rmw(2, call("// bump add", "AddUint64"), fr(9, "Alloc")),
			rmw(1, call("// bump add", "AddUint64"), fr(1, "Alloc")),
		}, false},
		{"re-read whose test returns or goes round, then another's add, then the next round's add", []Event{
			r(1, call("// used recheck", "LoadUint64"), fr(1, "AllocUsed")),
			rmw(2, call("// used add", "AddUint64"), fr(9, "AllocUsed")),
			rmw(1, call("// used add", "AddUint64"), fr(1, "AllocUsed")),
		}, true},
		{"re-read under the lock, then another's add, then the store of the next page: the add lost", []Event{
			r(1, call("// bump recheck", "LoadUint64"), fr(1, "Alloc")),
			rmw(2, call("// bump add", "AddUint64"), fr(9, "Alloc")),
			{Thread: 1, Unit: 1, Write: true, Site: call("// bump store", "StoreUint64"), Frames: []Frame{fr(1, "Alloc")}},
		}, true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeIdleDelete: a lookup that found a key and decides only the
// unit's delete of it, with another goroutine's delete of the same key
// between and no other write of the map in the schedule, deletes nothing
// the serial order does not (tally's scope_registry.go:269 and :296); a
// path that also counts, closes what it found or returns the finding,
// another write between, another key, or no schedule stays judged,
// unless every other write of the map in the schedule is a blind delete
// (Touch.Blind: mplex's stream Close unregistering a stream whose
// remote close handleIncoming is handling, multiplex.go:401).
func TestJudgeIdleDelete(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		// name+"(": Drop's name is also the start of its type's.
		return Frame{ID: id, Site: at("func (d *Drops) "+name+"(", name+"(")}
	}
	site := func(mark string) string {
		col := "["
		if strings.Contains(mark, "delete") {
			col = "("
		}
		return at("// drops "+mark, col)
	}
	const key = 7
	// evs is the unit's lookup (method, at look) and delete (at del, in
	// the frames inner), and the other goroutine's delete between, of
	// key k2, at steps 1, 3 and 5; the schedule's writes of the map by
	// others are that delete and extra.
	evs := func(method, look, del string, inner []string, k2 int64, extra ...Touch) []Event {
		frames := []Frame{fr(1, method)}
		other := []Frame{fr(9, method)}
		for n, f := range inner {
			frames = append(frames, fr(int32(2+n), f))
			other = append(other, fr(int32(10+n), f))
		}
		a := Event{Thread: 1, Unit: 1, Read: true, Site: site(look), Frames: frames[:1], Key: key, Step: 1}
		w := Event{Thread: 2, Unit: 2, Write: true, Site: site(del), Frames: other, Key: k2, Step: 3}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: site(del), Frames: frames, Key: key, Step: 5}
		a.Writes = append([]Touch{{Step: 3, Site: w.Site, G: "g2"}}, extra...)
		return []Event{a, w, b}
	}
	drop := func(k2 int64, extra ...Touch) []Event {
		return evs("Drop", "lookup", "delete", []string{"remove"}, k2, extra...)
	}
	noSchedule := drop(key)
	noSchedule[0].Writes = nil
	inserted := drop(key)
	inserted[1].Site = site("put")
	inserted[0].Writes[0].Site = inserted[1].Site
	otherKey := drop(key)
	otherKey[2].Key = 8
	// blinded marks the schedule's other writes of the map blind: their
	// goroutines never read the map before them, nor did anyone after
	// them up to the pattern's end (Touch.Blind).
	blinded := func(evs []Event) []Event {
		ws := slices.Clone(evs[0].Writes)
		for n := range ws {
			ws[n].Blind = true
		}
		evs[0].Writes = ws
		return evs
	}
	closedBlind := blinded(evs("DropClosed", "closed lookup", "closed delete", nil, key))
	halfBlind := blinded(evs("DropClosed", "closed lookup", "closed delete", nil, key, Touch{Step: 4, Site: site("delete"), G: "g3"}))
	halfBlind[0].Writes[1].Blind = false
	insertBlind := blinded(drop(key, Touch{Step: 4, Site: site("put"), G: "g3"}))
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a found key deleted twice, nothing else decided", drop(key), false},
		{"the same, another key's delete also in the schedule", drop(key, Touch{Step: 4, Site: site("delete"), G: "g3"}), false},
		{"the same, no schedule", noSchedule, true},
		{"the same, an insert in the schedule after the other delete", drop(key, Touch{Step: 4, Site: site("put"), G: "g3"}), true},
		{"the same, the other goroutine's delete of another key", drop(8), true},
		{"the same, the unit's delete of another key", otherKey, true},
		{"an insert of the key between, not a delete", inserted, true},
		{"a drop that also counts", evs("DropCounted", "counted lookup", "counted delete", []string{"removeCounted"}, key), true},
		{"a drop that closes the entry it found", evs("DropClosed", "closed lookup", "closed delete", nil, key), true},
		{"a drop that returns whether it found the key", evs("DropTold", "told lookup", "told delete", nil, key), true},
		{"a drop that closes the entry it found, the other delete blind", closedBlind, false},
		{"a drop that counts, the other delete blind", blinded(evs("DropCounted", "counted lookup", "counted delete", []string{"removeCounted"}, key)), false},
		{"a drop that returns the finding, the other delete blind", blinded(evs("DropTold", "told lookup", "told delete", nil, key)), false},
		{"a drop that closes, one other delete not blind", halfBlind, true},
		{"a blind insert in the schedule", insertBlind, true},
		{"a blind delete of a key unrecorded (0): deletes commute", blinded(drop(0)), false},
		{"a blind delete of an insert's site between", blinded(inserted), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeDrainedEntry: a report that ranges over the gauges between
// another report's swap of a gauge's updated flag and its deletion of the
// gauges, and whose own swap gets the 0 that swap left, reports nothing
// for it, as the serial order running the other first does (tally's
// stats.go:129 asv); a swap that read another write's value, a report
// that emits whatever the swap got, or a body that counts the gauges
// stays judged.
func TestJudgeDrainedEntry(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name+"(")}
	}
	site := func(mark, col string) string { return at("// meter "+mark, col) }
	swap := func(mark string) string {
		return shift(at("// meter "+mark, "SwapUint64("), len("SwapUint64"))
	}
	// evs: the writer's swap (step 1), the reader's range (method,
	// rng) and swap (sw, in inner), then the writer's delete (step 4);
	// prior is the reader's swap's Prior.
	evs := func(method, rng, inner, sw string, prior []Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: swap("swap"), Frames: []Frame{fr(1, "m *Meter", "Report"), fr(2, "g *meterGauge", "report")}, Step: 1}
		r1 := Event{Thread: 2, Unit: 2, Read: true, Var: 1, Site: site(rng, "for"), Frames: []Frame{fr(9, "m *Meter", method)}, Step: 2}
		r2 := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: swap(sw), Frames: []Frame{fr(9, "m *Meter", method), fr(10, "g *meterGauge", inner)}, Step: 3, Prior: prior}
		b := Event{Thread: 1, Unit: 1, Write: true, Var: 1, Site: shift(site("clear", "delete("), len("delete")), Frames: []Frame{fr(3, "m *Meter", "Clear")}, Step: 4}
		return []Event{a, r1, r2, b}
	}
	// slice: the same with the reader's range over m.slice at rng and
	// the writer's store into m.slice at clear.
	slice := func(method, rng, inner, sw, clear string, prior []Touch) []Event {
		e := evs(method, rng, inner, sw, prior)
		e[1].Site = site(rng, "slice")
		e[3].Site = site(clear, "slice")
		e[3].Frames = []Frame{fr(3, "m *Meter", map[string]string{"clear slice": "ClearSlice", "trim slice": "TrimSlice"}[clear])}
		return e
	}
	drained := []Touch{{Step: 1, Site: swap("swap"), G: "g1"}}
	update := shift(at("// meter update", "StoreUint64("), len("StoreUint64"))
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the second swap gets the drained 0, the report does nothing", evs("Report", "report", "report", "swap", drained), false},
		{"the same, the writer's second swap of the flag between (tally's root in every bucket)", evs("Report", "report", "report", "swap", append(drained, Touch{Step: 2, Site: swap("swap"), G: "g1"})), false},
		{"the same, no schedule", evs("Report", "report", "report", "swap", nil), true},
		{"the same, an Update of the flag between the swaps", evs("Report", "report", "report", "swap", append(drained, Touch{Step: 2, Site: update, G: "g3"})), true},
		{"the same, the writer's swap not among the writes before the reader's", evs("Report", "report", "report", "swap", []Touch{}), true},
		{"a report that emits whatever its swap got", evs("ReportAlways", "report always", "reportAlways", "swap always", drained), true},
		{"a report that also counts the gauges", evs("ReportCounted", "report counted", "report", "swap", drained), true},
		{"a report that returns how many gauges it came to", evs("ReportTold", "report told", "report", "swap", drained), true},
		// The slice: the writer sets it to nil (tally's clearMetrics and
		// cachedReport, gaugesSlice, stats.go:135 asv).
		{"a range over the slice the writer sets to nil, the swap drained", slice("CachedReport", "cached report", "report", "swap", "clear slice", drained), false},
		{"the slice, an Update of the flag between the swaps", slice("CachedReport", "cached report", "report", "swap", "clear slice", append(drained, Touch{Step: 2, Site: update, G: "g3"})), true},
		{"the slice, no schedule", slice("CachedReport", "cached report", "report", "swap", "clear slice", nil), true},
		{"a range over the slice the writer trims (its array kept)", slice("CachedReport", "cached report", "report", "swap", "trim slice", drained), true},
		{"a range over the slice emitting whatever its swap got", slice("CachedReportAlways", "cached report always", "reportAlways", "swap always", "clear slice", drained), true},
		{"a range over the slice that also counts the gauges", slice("CachedReportCounted", "cached report counted", "report", "swap", "clear slice", drained), true},
		{"a range over the slice that stops at a nil gauge", slice("CachedReportUntil", "cached report until", "report", "swap", "clear slice", drained), true},
		{"a range over the slice that returns its length", slice("CachedReportTold", "cached report told", "report", "swap", "clear slice", drained), true},
		{"a range over the slice that counts the gauges into a local it returns", slice("CachedReportCount", "cached report local", "report", "swap", "clear slice", drained), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeConstBack: a unit that reads back a variable it set to a
// constant, every write between (the replayed schedule's, Event.Prior)
// storing that constant too, reads what its own write left (tally's
// clearMetrics: two clears of one closed scope store nil into
// countersSlice, then the next report ranges over it, scope.go:553 av).
// A write between of another value (an empty non-nil slice, an append,
// the flag's other value), or no schedule, stays a stale read-back.
func TestJudgeConstBack(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (s *Slate) "+name+"(", name)} }
	store := func(mark string) string { return at("// slate "+mark, "items") }
	mark := func(mark string) string {
		return shift(at("// slate "+mark, "StoreInt32("), len("StoreInt32"))
	}
	cleared := []Touch{{Step: 1, Site: store("clear"), G: "g1"}}
	// evs: the unit's write (step 1), another unit's write (step 2), the
	// unit's read-back (step 3) with prior as its Prior.
	evs := func(w, other, read string, inner string, prior []Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: w, Frames: []Frame{fr(1, "Clear")}, Step: 1}
		o := Event{Thread: 2, Unit: 2, Write: true, Site: other, Frames: []Frame{fr(9, "Clear")}, Step: 2}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: read, Frames: []Frame{fr(1, "Clear"), fr(2, inner)}, Step: 3, Prior: prior}
		return []Event{a, o, b}
	}
	flag := func(other string, prior []Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: mark("mark"), Frames: []Frame{fr(1, "Mark")}, Step: 1}
		o := Event{Thread: 2, Unit: 2, Write: true, Site: other, Frames: []Frame{fr(9, "Mark")}, Step: 2}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: shift(at("// slate marked", "LoadInt32("), len("LoadInt32")), Frames: []Frame{fr(1, "Mark")}, Step: 3, Prior: prior}
		return []Event{a, o, b}
	}
	marked := []Touch{{Step: 1, Site: mark("mark"), G: "g1"}}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"cleared, cleared again by another, then summed", evs(store("clear"), store("clear"), at("// slate sum", "items"), "Sum", append(cleared, Touch{Step: 2, Site: store("clear"), G: "g2"})), false},
		{"the same, no schedule", evs(store("clear"), store("clear"), at("// slate sum", "items"), "Sum", nil), true},
		{"the same, the unit's write not among the writes before the read", evs(store("clear"), store("clear"), at("// slate sum", "items"), "Sum", []Touch{{Step: 2, Site: store("clear"), G: "g2"}}), true},
		{"cleared, reset to an empty slice by another, then summed", evs(store("clear"), store("reset"), at("// slate sum", "items"), "Sum", append(cleared, Touch{Step: 2, Site: store("reset"), G: "g2"})), true},
		{"cleared, appended to by another, then summed", evs(store("clear"), store("add"), at("// slate sum", "items"), "Sum", append(cleared, Touch{Step: 2, Site: store("add"), G: "g2"})), true},
		{"cleared again, then appended to, then summed", evs(store("clear"), store("clear"), at("// slate sum", "items"), "Sum", append(cleared, Touch{Step: 2, Site: store("clear"), G: "g2"}, Touch{Step: 2, Site: store("add"), G: "g3"})), true},
		{"the flag set, set again by another, then returned", flag(mark("mark"), append(marked, Touch{Step: 2, Site: mark("mark"), G: "g2"})), false},
		{"the flag set, cleared by another, then returned", flag(mark("unmark"), append(marked, Touch{Step: 2, Site: mark("unmark"), G: "g2"})), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeRangesNil: a stale check that decides a range over a slice
// another goroutine set to nil before the range loaded it (Event.Prior's
// last write) uses nothing the range read: the loop runs no round
// (tally's cached report of a scope the other report cleared,
// scope_registry.go:140 asv). A slice appended to last, one also
// measured, or no schedule stays judged.
func TestJudgeRangesNil(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (s *Slate) "+name+"(", name)} }
	load := func(mark string) string { return shift(at("// slate "+mark, "LoadInt32("), len("LoadInt32")) }
	items := func(mark string) string { return at("// slate "+mark, "items") }
	evs := func(method, open, read string, inner []Frame, last string) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Site: load(open), Frames: []Frame{fr(1, method)}, Step: 1}
		o1 := Event{Thread: 2, Unit: 2, Write: true, Site: shift(at("// slate unmark", "StoreInt32("), len("StoreInt32")), Frames: []Frame{fr(9, "Unmark")}, Step: 2}
		o2 := Event{Thread: 2, Unit: 2, Write: true, Var: 1, Site: items("clear"), Frames: []Frame{fr(10, "Clear")}, Step: 3}
		b := Event{Thread: 1, Unit: 1, Read: true, Var: 1, Site: read, Frames: append([]Frame{fr(1, method)}, inner...), Step: 4}
		if last != "" {
			b.Prior = []Touch{{Step: 3, Site: items(last), G: "g2"}}
		}
		return []Event{a, o1, o2, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the range loads the nil the other stored", evs("SumIfOpen", "open", items("sum"), []Frame{fr(2, "Sum")}, "clear"), false},
		{"the same, no schedule", evs("SumIfOpen", "open", items("sum"), []Frame{fr(2, "Sum")}, ""), true},
		{"the range loads what another appended last", evs("SumIfOpen", "open", items("sum"), []Frame{fr(2, "Sum")}, "add"), true},
		{"the slice also measured after the range", evs("SumLenIfOpen", "open len", shift(at("// slate sum len", "s.items"), 2), nil, "clear"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeClearedAgain: a stale check that decides a clear of a map
// (a loop deleting each key it comes to), when every write of the map
// up to the clear's range (Event.Prior) was another clear's delete,
// deletes nothing a serial order keeps: the map ends empty either way
// (tally's clearMetrics of a closed scope the other report cleared
// first, scope_registry.go:120 asv). An insert or a lone delete
// between, a clear that counts what it deleted, or no schedule stays
// judged.
func TestJudgeClearedAgain(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (s *Shelf) "+name+"(", name)} }
	load := func(mark string) string { return shift(at("// shelf "+mark, "LoadInt32("), len("LoadInt32")) }
	del := func(mark string) string { return shift(at("// shelf "+mark, "delete("), len("delete")) }
	clearDel := del("clear delete")
	evs := func(method, open, rng string, inner []Frame, prior []Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Site: load(open), Frames: []Frame{fr(1, method)}, Step: 1}
		o1 := Event{Thread: 2, Unit: 2, Write: true, Site: shift(at("// shelf close", "StoreInt32("), len("StoreInt32")), Frames: []Frame{fr(9, "Close")}, Step: 2}
		o2 := Event{Thread: 3, Unit: 3, Write: true, Var: 1, Site: clearDel, Frames: []Frame{fr(10, "Clear")}, Step: 3}
		b := Event{Thread: 1, Unit: 1, Read: true, Var: 1, Site: at("// shelf "+rng, "for"), Frames: append([]Frame{fr(1, method)}, inner...), Step: 4, Prior: prior}
		return []Event{a, o1, o2, b}
	}
	cleared := []Touch{{Step: 3, Site: clearDel, G: "g3"}}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the clear's range after another clear", evs("ClearIfOpen", "open", "clear", []Frame{fr(2, "Clear")}, cleared), false},
		{"the same, no schedule", evs("ClearIfOpen", "open", "clear", []Frame{fr(2, "Clear")}, nil), true},
		{"the same, an insert between", evs("ClearIfOpen", "open", "clear", []Frame{fr(2, "Clear")}, append(cleared, Touch{Step: 3, Site: at("// shelf put", "m["), G: "g4"})), true},
		{"the same, a lone delete between", evs("ClearIfOpen", "open", "clear", []Frame{fr(2, "Clear")}, []Touch{{Step: 3, Site: del("drop"), G: "g4"}}), true},
		{"a clear that counts what it deleted", evs("ClearCountedIfOpen", "open counted", "clear counted", nil, cleared), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeSlotRetry: cornelk/hashmap's store.addItem loads an index slot
// it reaches by pointer arithmetic (no variable names it) and CASes it
// against the item loaded, loading again when the CAS fails. A later call
// by the unit that reads back another goroutine's item there is that
// loop's next round, not a stale read-back (false before retriedSlot);
// the same slot stored without a CAS stays judged.
func TestJudgeSlotRetry(t *testing.T) {
	x, at := index(t)
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, recv, name string) Frame { return Frame{ID: id, Site: method(recv, name)} }
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	r := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: fr}
	}
	w := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: site, Frames: fr}
	}
	rmw := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Write: true, Site: site, Frames: fr}
	}
	const recv = "s *IdxStore[K, V]"
	fill, other := frame(1, recv, "Fill"), frame(9, recv, "Fill")
	add := func(id int32) Frame { return frame(id, recv, "addItem") }
	blind := func(id int32) Frame { return frame(id, recv, "addBlind") }
	casNil := call("// idx cas nil", "CompareAndSwapPointer")
	casElem := call("// idx cas element", "CompareAndSwapPointer")
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the slot CASed in, another's CAS, then the next call's retry load", []Event{
			rmw(1, casNil, fill, add(2)),
			rmw(2, casElem, other, add(10)),
			r(1, call("// idx load", "LoadPointer"), fill, add(3)),
		}, false},
		{"the slot stored with no CAS, another's CAS, then the next call's blind load", []Event{
			w(1, call("// idx blind store", "StorePointer"), fill, blind(2)),
			rmw(2, casElem, other, add(10)),
			r(1, call("// idx blind load", "LoadPointer"), fill, blind(3)),
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeRecursiveRetry: cep21/circuit's RollingBuckets.Advance CASes
// the index from the value it loaded (through a getter) and, when the CAS
// fails, returns a call of itself with its own arguments: the next
// round of a retry loop written as recursion. Its load in that call
// reads another goroutine's CAS, as a loop's load at the top of the next
// round does: no stale read-back (false before failsBack took the
// re-call for the back edge); and the re-call's CAS validates afresh
// the state its first CAS left, which another goroutine read between:
// published, as a retry loop's CAS in a later activation. A re-call
// with another argument, or a plain store before the re-call, stays
// judged, and so do a plain store that a load of such a function
// decides and a second CAS in the same call.
func TestJudgeRecursiveRetry(t *testing.T) {
	x, at := index(t)
	method := func(recv, name string) string { return at("func ("+recv+") "+name+"(", name) }
	frame := func(id int32, recv, name string) Frame { return Frame{ID: id, Site: method(recv, name)} }
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	r := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: site, Frames: fr}
	}
	w := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: site, Frames: fr}
	}
	rmw := func(u int, site string, fr ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Write: true, Site: site, Frames: fr}
	}
	get := call("return a.Load() // ring get", "Load")
	getter := func(id int32) Frame { return frame(id, "a *RollIndex", "Get") }
	ring := func(id int32, name string) Frame { return frame(id, "r *Roll", name) }
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a step CASed, another's CAS, then the re-call's load", []Event{
			rmw(1, call("// ring step", "CompareAndSwap"), ring(1, "Advance")),
			rmw(2, call("// ring step", "CompareAndSwap"), ring(9, "Advance")),
			r(1, get, ring(1, "Advance"), ring(2, "Advance"), getter(3)),
		}, false},
		{"the jump CASed, another's CAS, then the re-call's load", []Event{
			rmw(1, call("// ring jump", "CompareAndSwap"), ring(1, "Advance")),
			rmw(2, call("// ring step", "CompareAndSwap"), ring(9, "Advance")),
			r(1, get, ring(1, "Advance"), ring(2, "Advance"), getter(3)),
		}, false},
		{"a step CASed, another's CAS, then a re-call with another argument loads", []Event{
			rmw(1, call("// ring next step", "CompareAndSwap"), ring(1, "AdvanceNext")),
			rmw(2, call("// ring next step", "CompareAndSwap"), ring(9, "AdvanceNext")),
			r(1, get, ring(1, "AdvanceNext"), ring(2, "AdvanceNext"), getter(3)),
		}, true},
		{"a blind store, another's store, then the re-call's load", []Event{
			w(1, call("// ring blind store", "Store"), ring(1, "AdvanceBlind")),
			w(2, call("// ring blind store", "Store"), ring(9, "AdvanceBlind")),
			r(1, get, ring(1, "AdvanceBlind"), ring(2, "AdvanceBlind"), getter(3)),
		}, true},
		{"a step CASed, another's load, then the re-call's step CAS: the state between is published", []Event{
			rmw(1, call("// ring step", "CompareAndSwap"), ring(1, "Advance")),
			r(2, get, ring(9, "Advance"), getter(10)),
			rmw(1, call("// ring step", "CompareAndSwap"), ring(1, "Advance"), ring(2, "Advance")),
		}, false},
		{"a step CASed, another's load, then the next step CAS in the same call", []Event{
			rmw(1, call("// ring step", "CompareAndSwap"), ring(1, "Advance")),
			r(2, get, ring(9, "Advance"), getter(10)),
			rmw(1, call("// ring jump", "CompareAndSwap"), ring(1, "Advance")),
		}, true},
		{"a step CASed, another's load, then a re-call with another argument CASes", []Event{
			rmw(1, call("// ring next step", "CompareAndSwap"), ring(1, "AdvanceNext")),
			r(2, get, ring(9, "AdvanceNext"), getter(10)),
			rmw(1, call("// ring next step", "CompareAndSwap"), ring(1, "AdvanceNext"), ring(2, "AdvanceNext")),
		}, true},
		{"a load, another's CAS, then a plain store the load decided, in a function that retries by recursion", []Event{
			r(1, get, ring(1, "AdvanceStale"), getter(2)),
			rmw(2, call("// stale step", "CompareAndSwap"), ring(9, "AdvanceStale")),
			w(1, call("// stale store", "Store"), ring(1, "AdvanceStale")),
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
	// A load that is an atomic Load call itself (a method of
	// atomic.Int64, a function of sync/atomic) is no getter's call:
	// still the loop's load.
	for _, load := range []string{at("old := g.v.Load()", "("), at("old := atomic.LoadInt64(&g.raw)", "(")} {
		if !x.retryRead(Event{Thread: 1, Unit: 1, Read: true, Site: load}) {
			t.Errorf("retryRead(%s) = false, want true: a CAS loop's load", load)
		}
	}
}

// TestJudgeHolders: go-deadlock's lockOrder, whose held-lock records keep
// the pooled array behind their stacks (*[8]uintptr) and are appended to
// a lock's holders looked up afresh.
func TestJudgeHolders(t *testing.T) {
	x, at := index(t)
	frame := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (l *Holders) "+name+"(", name)}
	}
	keyed := func(e Event, k int64) Event { e.Key = k; return e }
	fresh := func(e Event, sites ...string) Event { e.Fresh = sites; return e }
	check := Event{Thread: 2, Unit: 2, Read: true, Site: at("for o, hs := range l.cur { // holders check", "for"), Frames: []Frame{frame(9, "Check")}}
	acquired := Event{Thread: 1, Unit: 1, Write: true, Site: at("// holders acquired", "["), Frames: []Frame{frame(2, "Acquired")}}
	released := Event{Thread: 1, Unit: 1, Write: true, Site: at("// holders released", "("), Frames: []Frame{frame(3, "Released")}}
	lookup := at("// holders lookup", "[")
	// The lost-write shape: the unit's Check ranges over the records,
	// another goroutine's Released deletes one, the unit's Acquired
	// stores its lock's holders back.
	unitCheck := check
	unitCheck.Thread, unitCheck.Unit, unitCheck.Frames = 1, 1, []Frame{frame(1, "Check")}
	otherRelease := released
	otherRelease.Thread, otherRelease.Unit, otherRelease.Frames = 2, 2, []Frame{frame(9, "Released")}
	blind := Event{Thread: 1, Unit: 1, Write: true, Site: at("// holders blind", "["), Frames: []Frame{frame(2, "AcquiredBlind")}}
	ptrAcq := Event{Thread: 1, Unit: 1, Write: true, Site: at("// holders acquired ptr", "["), Frames: []Frame{frame(2, "AcquiredPtr")}}
	ptrRel := Event{Thread: 1, Unit: 1, Write: true, Site: at("// holders released ptr", "("), Frames: []Frame{frame(3, "ReleasedPtr")}}
	ptrCheck := Event{Thread: 2, Unit: 2, Read: true, Site: at("for _, hs := range l.ptr { // holders check ptr", "for"), Frames: []Frame{frame(9, "CheckPtr")}}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a record keeping its pooled array, inserted then deleted at one key: a marker (heldEntry)", []Event{keyed(acquired, 7), check, keyed(released, 7)}, false},
		{"records by pointer inserted then deleted at one key", []Event{keyed(ptrAcq, 7), ptrCheck, keyed(ptrRel, 7)}, true},
		{"a range, another's delete, the holders looked up afresh and stored back with the unit's own (rebuilt)", []Event{unitCheck, keyed(otherRelease, 7), fresh(keyed(acquired, 7), lookup)}, false},
		{"the same without the fresh lookup in the schedule", []Event{unitCheck, keyed(otherRelease, 7), keyed(acquired, 7)}, true},
		{"a fresh lookup the write does not build on", []Event{unitCheck, keyed(otherRelease, 7), fresh(keyed(blind, 7), at("// holders blind lookup", "["))}, true},
		{"a fresh read at another site than a lookup of the written key", []Event{unitCheck, keyed(otherRelease, 7), fresh(keyed(acquired, 7), at("for o, hs := range l.cur { // holders check", "for"))}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeSpared: heldlockfixed's lost write that is none. The unit's
// Check ranges over the held locks and uses what it found, another
// goroutine's Acquired inserts a record at the key the unit's Released
// then deletes. Without the replay's word it is a lost write; with
// Event.Spares (the other's record deleted by its own Released, and the
// unit's own insert after that, in the replay's trace: check's spares),
// the delete overwrites nothing of the other's. A b that writes no one
// map element stays judged.
func TestJudgeSpared(t *testing.T) {
	x, at := index(t)
	frame := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (l *Locks) "+name+"(", name)}
	}
	keyed := func(e Event, k int64) Event { e.Key = k; return e }
	spares := func(e Event) Event { e.Spares = true; return e }
	check := Event{Thread: 1, Unit: 1, Read: true, Site: at("for o, h := range l.cur { // locks check", "for"), Frames: []Frame{frame(1, "Check")}}
	other := keyed(Event{Thread: 2, Unit: 2, Write: true, Site: at("l.cur[m] = Held{gid, stack} // locks acquired", "["), Frames: []Frame{frame(9, "Acquired")}}, 7)
	released := keyed(Event{Thread: 1, Unit: 1, Write: true, Site: at("delete(l.cur, m) // locks released", "("), Frames: []Frame{frame(3, "Released")}}, 7)
	inserted := keyed(Event{Thread: 1, Unit: 1, Write: true, Site: at("l.cur[m] = Held{gid, stack} // locks acquired", "["), Frames: []Frame{frame(3, "Acquired")}}, 7)
	// A store to a field at b's place: no one map element's write.
	field := Event{Thread: 1, Unit: 1, Write: true, Site: at("cb.requests = 0", "requests"), Frames: []Frame{frame(3, "Released")}}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a range, another's insert, the unit's delete of that key", []Event{check, other, released}, true},
		{"the same, the other's record gone and the unit's own deleted (Spares)", []Event{check, other, spares(released)}, false},
		{"a range, another's insert, the unit's insert of that key", []Event{check, other, inserted}, true},
		{"the same, spared: a store at one element", []Event{check, other, spares(inserted)}, false},
		{"spared, but the write is no map element's", []Event{check, other, spares(keyed(field, 7))}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestHeldByValue: a pointer to an array of plain values is held by value
// as a slice of them is; a pointer to an array of pointers, or to a
// struct, is not.
func TestHeldByValue(t *testing.T) {
	arr := func(e types.Type) types.Type { return types.NewArray(e, 8) }
	ptr := types.NewPointer
	st := types.NewStruct([]*types.Var{types.NewField(token.NoPos, nil, "n", types.Typ[types.Int], false)}, nil)
	for _, tc := range []struct {
		t    types.Type
		want bool
	}{
		{ptr(arr(types.Typ[types.Uintptr])), true},
		{types.NewSlice(types.Typ[types.Uintptr]), true},
		{ptr(arr(ptr(types.Typ[types.Int]))), false},
		{ptr(st), false},
		{ptr(types.Typ[types.Int]), false},
	} {
		if got := heldByValue(tc.t, nil); got != tc.want {
			t.Errorf("heldByValue(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestJudgeClearedSlot: go-deadlock's holders slice: a record appended,
// another goroutine's range over the records, the record's slot zeroed
// (clearedSlot); a record by pointer, or a slot overwritten with another
// record, stays judged.
func TestJudgeClearedSlot(t *testing.T) {
	x, at := index(t)
	ev := func(u int, read bool, site, name string) Event {
		fr := Frame{ID: int32(u*10 + len(name)), Site: at("func (s *Slots) "+name+"(", name)}
		return Event{Thread: u, Unit: u, Read: read, Write: !read, Site: site, Frames: []Frame{fr}}
	}
	take := ev(1, false, at("// slots take", "("), "Take")
	give := ev(1, false, at("// slots give", "["), "Give")
	mark := ev(1, false, at("// slots mark", "["), "Mark")
	move := ev(1, false, at("// slots move", "["), "Give")
	mine := ev(2, true, at("for _, h := range s.hs { // slots check", "hs {"), "Mine")
	takePtr := ev(1, false, at("// slots take ptr", "("), "TakePtr")
	givePtr := ev(1, false, at("// slots give ptr", "["), "GivePtr")
	minePtr := ev(2, true, at("for _, h := range s.ps { // slots check ptr", "ps {"), "MinePtr")
	fresh := func(e Event, sites ...string) Event { e.Fresh = sites; return e }
	atRead := ev(1, true, at("// slots at", "["), "At")
	drop1 := ev(1, false, at("// slots drop", "hs ="), "Drop")
	drop2 := ev(2, false, at("// slots drop", "hs ="), "Drop")
	push1 := ev(1, false, at("// slots push", "hs ="), "Push")
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a record appended, then its slot zeroed", []Event{take, mine, give}, false},
		{"a record appended, then the last record moved into its slot", []Event{take, mine, move}, false},
		// jigsaw: the unit's At reads record 0, another goroutine's Drop
		// removes it, the unit's Drop(0) removes another record: built
		// from a fresh read of the slice, but not by an append (rebuilt).
		{"a record read, another's drop, the unit's drop of the slice read afresh", []Event{atRead, drop2, fresh(drop1, at("// slots drop", "hs, i"))}, true},
		{"the records read, another's drop, the unit's append to the slice read afresh", []Event{atRead, drop2, fresh(push1, at("// slots push", "hs, h"))}, false},
		{"a record appended, then overwritten with a mark", []Event{take, mine, mark}, true},
		{"a record by pointer appended, then its slot set to nil", []Event{takePtr, minePtr, givePtr}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeTryLock: akrylysov/pogreb's Compact claims a flag by CAS and
// releases it in a deferred store; another Compact's failed CAS between
// them returns errBusy having done nothing (tryRefused), and the test's
// poll of the flag in a function literal only reports it held (heldProbe):
// neither reads an intermediate state of data (compaction.go:138 av). A
// refusal that returns nothing, returns a nil error, counts itself in
// shared memory or queued work before its try (claimdrain's shape), a
// probe that keeps the value, and a probe in the package's own code stay
// judged.
func TestJudgeTryLock(t *testing.T) {
	x, at := index(t)
	src, err := os.ReadFile("testdata/src/dep/dep_test.go")
	if err != nil {
		t.Fatal(err)
	}
	atTest := func(line, col string) string {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.Contains(l, line) {
				return fmt.Sprintf("dep/dep_test.go:%d:%d", i+1, strings.Index(l, col)+1)
			}
		}
		t.Fatalf("no line %q", line)
		return ""
	}
	fr := func(id int32, name string) []Frame {
		if name == "" {
			return nil
		}
		return []Frame{{ID: id, Site: at("func (c *Compactor) "+name+"(", name+"(")}}
	}
	claimAt := func(which string) string { return at("// compactor "+which+"claim", "(&c.running, ") }
	releaseAt := func(which string) string { return at("// compactor "+which+"release", "(&c.running, 0)") }
	try := func(which string, frs []Frame) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: claimAt(""), Frames: fr(1, "Compact")},
			{Thread: 2, Unit: 2, Read: true, Site: claimAt(which), Frames: frs},
			{Thread: 1, Unit: 1, Write: true, Site: releaseAt(""), Frames: fr(1, "Compact")},
		}
	}
	probe := func(site string, frs []Frame) []Event {
		evs := try("", nil)
		evs[1] = Event{Thread: 2, Unit: 2, Read: true, Site: site, Frames: frs}
		return evs
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a failed try that refuses with errBusy", try("", fr(3, "Compact")), false},
		{"a refusal that returns nothing", try("quiet ", fr(3, "CompactQuiet")), true},
		{"a refusal after queueing work", try("add ", fr(3, "CompactAdd")), true},
		{"a refusal with a nil error", try("nil ", fr(3, "CompactNil")), true},
		{"a refusal counted in shared memory", try("counted ", fr(3, "CompactCounted")), true},
		{"a failed CAS from another value", try("other ", fr(3, "CompactOther")), true},
		{"a refusal in a unit that holds more", try("", append(fr(3, "CompactAdd"), fr(4, "Compact")...)), true},
		{"a test's probe of the claim", probe(atTest("// compactor probe", "(&c.running) == 1"), nil), false},
		{"a test's probe that keeps the value", probe(atTest("// compactor kept probe", "(&c.running)"), nil), true},
		{"a probe in the package's code", probe(at("// compactor busy probe", "(&c.running) == 1"), nil), true},
	} {
		v := x.Judge(c.evs)
		if v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeSwapRounds: kelindar/event's consumer swaps its queue for a
// fresh one in each round of a for {} loop; a producer's append between
// two rounds' swaps reads the state one round leaves for the next (the
// generic consumer as the plain one). The swap's site holds two
// instructions, the field's address and the store: taken as two
// accesses, the store after the address looked like a second write in
// the same round (kelindar's event.go:205 av, false, 4 of 4 go vet runs).
func TestJudgeSwapRounds(t *testing.T) {
	x, at := index(t)
	for _, c := range []struct{ recv, name string }{{"s *IntSwapper", "intswapper"}, {"s *Swapper[T]", "swapper"}} {
		listen := Frame{ID: 292, Site: at("func ("+c.recv+") Listen(", "Listen")}
		post := Frame{ID: 3435, Site: at("func ("+c.recv+") Post(", "Post")}
		swap := at("// "+c.name+" swap", "queue")
		if len(x.instrs[swap]) < 2 {
			t.Fatalf("%s: the swap's site %s holds %d instructions, want its address and its store", c.name, swap, len(x.instrs[swap]))
		}
		a := Event{Write: true, Site: swap, Frames: []Frame{listen}, Step: 3440}
		if !x.nextIteration(a, a) {
			t.Errorf("%s: the swap and the next round's swap are not two rounds", c.name)
		}
		postAt := at("// "+c.name+" post", "queue, ev")
		prior := []Touch{{Step: 3440, Site: swap, G: "g1.1.1"}, {Step: 3466, Site: postAt, G: "g1.1"}}
		evs := []Event{
			a,
			{Thread: 1, Unit: 1, Read: true, Site: postAt, Frames: []Frame{post}, Step: 3467,
				Writes: []Touch{{Step: 3440, Site: swap, G: "g1.1.1"}, {Step: 3475, Site: swap, G: "g1.1.1"}}, Prior: prior[:1]},
			{Write: true, Site: swap, Frames: []Frame{listen}, Step: 3475, Prior: prior},
		}
		if v := x.Judge(evs); v.Holds {
			t.Errorf("%s: two rounds' swaps around a post: Judge = %q: %s; want no dependence", c.name, v.Kind, v.Why)
		}
	}
}

// TestJudgeShiftedCount: xtaci/lossyconn's WriteTo reads a connection's
// pending count for a queueing delay (timedsender.go:94), the sender's
// loop takes a delivered packet off the count (:129), and the send adds
// its packets to the count looked up afresh under the lock (:83): the
// take is kept, no write is lost (rebuilt, shifts). The same without the
// fresh read in the schedule, a product of the fresh count, or a store
// of the count the unit read stay lost writes.
func TestJudgeShiftedCount(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (p *Pending) "+name+"(", name+"(")}
	}
	fresh := func(e Event, sites ...string) Event { e.Fresh = sites; return e }
	read := func(unit string) Event {
		return Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: at("// pending for", "["), Frames: []Frame{fr(1, unit), fr(2, "For")}, Key: 7}
	}
	done := Event{Thread: 2, Unit: 2, Var: 1, Write: true, Site: at("// pending done", "["), Frames: []Frame{fr(9, "Done")}, Key: 7}
	write := func(unit, inner, line string) Event {
		return Event{Thread: 1, Unit: 1, Var: 1, Write: true, Site: at(line, "["), Frames: []Frame{fr(1, unit), fr(3, inner)}, Key: 7}
	}
	add := write("Send", "Add", "// pending add")
	sub := write("SendSub", "Sub", "// pending sub")
	dbl := write("SendDouble", "Double", "// pending double")
	store := write("SendStore", "Store", "// pending store")
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the count read, another's take, the unit's add to the count read afresh", []Event{read("Send"), done, fresh(add, at("// pending add", "["))}, false},
		{"the same add without the fresh read in the schedule", []Event{read("Send"), done, add}, true},
		{"a subtraction from the count read afresh", []Event{read("SendSub"), done, fresh(sub, at("// pending sub", "[k] -"))}, false},
		{"a product of the count read afresh", []Event{read("SendDouble"), done, fresh(dbl, at("// pending double", "[k] *"))}, true},
		{"a store of the count the unit read, plus its own", []Event{read("SendStore"), done, store}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeLoopEntered: cilium/statedb's derive job commits once, then
// once in each round of a loop whose rounds wait for the next batch; a
// ReadTxn between the first two commits reads a committed root, the
// state the code before the loop leaves for it (loopEntered;
// write_txn.go:444 av, false). Two commits in a row, in one round, or
// before a loop with a round that does not wait stay judged.
func TestJudgeLoopEntered(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (r *Roots) "+name+"(", name+"(")}
	}
	// call is the site of the call of callee on line: its parenthesis.
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	store := call("// roots store", "Store")
	snap := Event{Thread: 2, Unit: 2, Read: true, Site: call("// roots snapshot", "Load"), Frames: []Frame{fr(9, "Snapshot")}}
	commits := func(unit string) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Write: true, Site: store, Frames: []Frame{fr(1, unit), fr(2, "Commit")}},
			snap,
			{Thread: 1, Unit: 1, Write: true, Site: store, Frames: []Frame{fr(1, unit), fr(3, "Commit")}},
		}
	}
	for _, tc := range []struct {
		unit string
		want bool
	}{
		{"Derive", false},
		{"DeriveTick", false},
		{"DeriveBusy", true},
		{"DeriveSome", true},
		{"DeriveTwo", true},
		{"Twice", true},
	} {
		t.Run(tc.unit, func(t *testing.T) {
			v := x.Judge(commits(tc.unit))
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v, tc.want)
			}
		})
	}
}

// TestJudgeMethodResult: xtaci/lossyconn's WriteTo reads the pending
// count for a queueing delay (timedsender.go:94) and returns whether
// trySendBatch, a method, admitted the packets on the queue's length
// (:28): the delay only sets the entries' time, so the result does not
// carry the count and mixes no stale value with the fresh length. A
// method's result is taken to depend on the arguments that flow into it
// (data or control), not on all of them; a delay that the admission
// tests, or a count that decides a recursion's tries, still does.
func TestJudgeMethodResult(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (q *Admit) "+name+"(", name+"(")}
	}
	done := Event{Thread: 2, Unit: 2, Var: 1, Write: true, Site: at("return q.pending // admit pending", "pending"), Frames: []Frame{fr(9, "Pending")}}
	for _, tc := range []struct {
		unit  string
		inner []string // the frames from the unit's to Len's
		want  bool
	}{
		{"Write", []string{"admit"}, false},
		{"WriteRefused", []string{"admitRefusing"}, true},
		{"WriteRetry", []string{"admitRetry", "admit"}, false},
		{"WriteTries", []string{"admitRetry", "admit"}, true},
	} {
		t.Run(tc.unit, func(t *testing.T) {
			read := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: at("return q.pending // admit pending", "pending"), Frames: []Frame{fr(1, tc.unit), fr(2, "Pending")}}
			frames := []Frame{fr(1, tc.unit)}
			for i, n := range tc.inner {
				frames = append(frames, fr(int32(3+i), n))
			}
			frames = append(frames, fr(8, "Len"))
			length := Event{Thread: 1, Unit: 1, Var: 2, Read: true, Site: at("// admit len", "entries"), Frames: frames}
			v := x.Judge([]Event{read, done, length})
			if v.Holds != tc.want {
				t.Errorf("Judge = %v, %q: %s; want %v", v.Holds, v.Kind, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeGetterInit: afero's MemMapFs (MemFs) makes its map in
// getData's once; between the unit's make and its insert, another Mkdir
// reads the map in getData (the load getData returns) and looks its name
// up in the result, which a nil map answers as the fresh one does. A
// reader whose lookup's map came from a later getData call, one that
// keeps the result and inserts through it, one whose key a call computes
// after getData's, and one without the replayed schedule stay judged.
func TestJudgeGetterInit(t *testing.T) {
	x, at := index(t)
	mf := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (m *MemFs) "+name+"(", name)} }
	getData := mf(0, "getData").Site // its region's site
	get := at("return m.data // memfs get", "data")
	// memfs: the unit's Mkdir makes the map and inserts; another's
	// method reads the map in getData, then looks up at line, its
	// steps between the two being after.
	memfs := func(method, line string, after ...string) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: at("m.data = make(map[string]int) // memfs once", "data ="), Frames: []Frame{mf(1, "Mkdir"), mf(2, "getData")}, Step: 1}
		r1 := Event{Thread: 2, Unit: 2, Read: true, Site: get, Frames: []Frame{mf(9, method), mf(10, "getData")}, Step: 5, After: after}
		r2 := Event{Thread: 2, Unit: 2, Var: 1, Read: true, Site: at(line, "["), Frames: []Frame{mf(9, method)}, Step: 7}
		b := Event{Thread: 1, Unit: 1, Var: 1, Write: true, Site: at("m.getData()[name] = 2 // memfs insert", "["), Frames: []Frame{mf(1, "Mkdir")}, Step: 9}
		return []Event{a, r1, r2, b}
	}
	unscheduled := memfs("Mkdir", "// memfs check", getData)
	for i := range unscheduled {
		unscheduled[i].Step, unscheduled[i].After = 0, nil
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"another Mkdir's lookup in getData's result, its load the one before", memfs("Mkdir", "// memfs check", getData), false},
		{"the lookup's map from a later getData call than the load", memfs("Mkdir", "// memfs check", getData, getData, get, getData), true},
		{"getData's result kept, looked up in and inserted through", memfs("Touch", "// memfs kept", getData), true},
		{"the lookup's key computed by a call after getData's", memfs("Has", "// memfs keyed", getData), true},
		{"no replayed schedule to tell which call the load was", unscheduled, true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s: %s), want %v", tc.name, v.Holds, v.Kind, v.Why, tc.want)
		}
	}
}

// TestJudgeValuesMeet: pion vnet's router loop (duplication_filter.go:299
// asv) reads its queue and then the duplication filter's bucket map,
// each under its own lock, between a bucket timer's delete and its push.
// A step that returns what it read of the queue and only tests the
// bucket it found combines the two values nowhere: no dependence. Steps
// where they meet (one result, a returned pair, one branch, a compare
// in the method the length is handed to, the count kept where the
// length decides, the bucket looked up only when the length says) stay
// judged, both as the reader's inconsistent snapshot and as the
// reader's own unit with the delete between its reads.
func TestJudgeValuesMeet(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (r *Router) "+name+"(", name+"(")}
	}
	const buckets, queue = 1, 2
	del := Event{Thread: 1, Unit: 1, Var: buckets, Write: true, Site: at("// router fire delete", "("), Frames: []Frame{fr(1, "Fire")}}
	push := Event{Thread: 1, Unit: 1, Var: queue, Write: true, Site: at("// router fire push", "queue ="), Frames: []Frame{fr(1, "Fire")}}
	// Flush against another Flush: the two takes, each under its own
	// lock, with the reader's two reads between (datadog-go's
	// aggregator.go:192 asv); the reader returns both.
	flush := func(id, in int32, inner string) []Frame { return []Frame{fr(id, "Flush"), fr(in, inner)} }
	takeQ := Event{Thread: 1, Unit: 1, Var: queue, Write: true, Site: at("r.queue = nil", "queue"), Frames: flush(1, 2, "takeQueue")}
	takeB := Event{Thread: 1, Unit: 1, Var: buckets, Write: true, Site: at("r.buckets = map[int]int{}", "buckets"), Frames: flush(1, 3, "takeBuckets")}
	readQ := Event{Thread: 2, Unit: 2, Var: queue, Read: true, Site: at("// router take queue", "queue"), Frames: flush(9, 10, "takeQueue")}
	readB := Event{Thread: 2, Unit: 2, Var: buckets, Read: true, Site: at("// router take buckets", "buckets"), Frames: flush(9, 11, "takeBuckets")}
	if v := x.Judge([]Event{takeQ, readQ, readB, takeB}); !v.Holds {
		t.Errorf("Flush: Judge = false, want true")
	} else {
		t.Logf("Flush: %s", v)
	}
	for _, tc := range []struct {
		step, inner, line, col string
		want                   bool
	}{
		{"Step", "schedule", "// router schedule", "[", false},
		{"StepSum", "count", "// router count", "[", true},
		{"StepPair", "count", "// router count", "[", true},
		{"StepCompare", "count", "// router count", "[", true},
		{"StepMark", "mark", "// router mark", "[", true},
		{"StepKept", "count", "// router count", "[", true},
		{"StepIf", "schedule", "// router schedule", "[", true},
	} {
		t.Run(tc.step, func(t *testing.T) {
			length := Event{Thread: 2, Unit: 2, Var: queue, Read: true, Site: at("// router queued", "queue"), Frames: []Frame{fr(9, tc.step), fr(10, "queued")}}
			lookup := Event{Thread: 2, Unit: 2, Var: buckets, Read: true, Site: at(tc.line, tc.col), Frames: []Frame{fr(9, tc.step), fr(11, tc.inner)}}
			if v := x.Judge([]Event{del, length, lookup, push}); v.Holds != tc.want {
				t.Errorf("snapshot: Judge = %v (%s: %s), want %v", v.Holds, v.Kind, v.Why, tc.want)
			} else {
				t.Logf("snapshot: %v %s", v.Holds, v)
			}
			if v := x.Judge([]Event{length, del, lookup}); v.Holds != tc.want {
				t.Errorf("unit: Judge = %v (%s: %s), want %v", v.Holds, v.Kind, v.Why, tc.want)
			} else {
				t.Logf("unit: %v %s", v.Holds, v)
			}
		})
	}
}

// TestJudgeStopFlag: miekg/dns's Server.started (Stopper) is a stop
// flag: Stop only clears it, and each of Serve's reads of it leaves the
// loop or skips work when it finds it cleared; a Stop between Serve's
// start and its loop's check, or between two checks of one round, stops
// the loop where it was written to stop (server.go:388, :393 and :272
// av). A writer of the loop's value, a stop value that does work or is
// kept, a check outside any loop the flag stops (one that leaves, one
// that skips), and a second start after
// another's check stay judged.
func TestJudgeStopFlag(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (s *Stopper) "+name+"(", name+"(")}
	}
	// def is a method of StopDefault, the interface's implementation.
	def := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (d StopDefault) "+name+"(", name+"(")}
	}
	site := func(mark string) string { return shift(at("// stopper "+mark, "s.started"), 2) }
	deadline := site("deadline")
	r := func(u int, s string, fs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: s, Frames: fs}
	}
	w := func(u int, s string, fs ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: s, Frames: fs}
	}
	stop := w(2, site("stop"), fr(9, "Stop"))
	restart := w(2, site("restart"), fr(9, "Restart"))
	serve := fr(1, "Serve")
	check := r(1, site("started"), serve, fr(2, "isStarted"))
	start := w(1, site("begin"), serve)
	written := func(e Event, sites ...string) Event {
		e.Writes = []Touch{}
		for n, s := range sites {
			e.Writes = append(e.Writes, Touch{Step: 10 + n, Site: s, G: "g2"})
		}
		return e
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"Serve's start read back by its loop's check after a Stop", []Event{start, stop, check}, false},
		{"Serve's start read back by read's deadline check after a Stop", []Event{start, stop, r(1, deadline, serve, def(3, "Read"), fr(4, "read"))}, false},
		{"Serve's loop check, a Stop, read's deadline check", []Event{check, stop, r(1, deadline, serve, def(3, "Read"), fr(4, "read"))}, false},
		{"the same, the schedule's other writes all Stop's", []Event{written(check, site("stop")), stop, written(r(1, deadline, serve, def(3, "Read"), fr(4, "read")), site("stop"))}, false},
		{"the same, the schedule shows a Restart too", []Event{written(check, site("stop"), site("restart")), stop, r(1, deadline, serve, def(3, "Read"), fr(4, "read"))}, true},
		{"Serve's loop check, a Restart, read's deadline check", []Event{check, restart, r(1, deadline, serve, def(3, "Read"), fr(4, "read"))}, true},
		{"Serve's start, a Stop and a Restart, its loop's check", []Event{start, stop, restart, check}, true},
		{"ServeReset's start read back by a check that resets and goes on", []Event{w(1, site("reset begin"), fr(1, "ServeReset")), stop, r(1, site("started"), fr(1, "ServeReset"), fr(2, "isStarted"))}, true},
		{"ServeKept's loop check, a Stop, readKept keeps the flag", []Event{r(1, site("started"), fr(1, "ServeKept"), fr(2, "isStarted")), stop, r(1, site("kept"), fr(1, "ServeKept"), def(3, "Kept"), fr(4, "readKept"))}, true},
		{"Open's start read back by its check that leaves, in no loop", []Event{w(1, site("open begin"), fr(1, "Open")), stop, r(1, site("started"), fr(1, "Open"), fr(2, "isStarted"))}, true},
		{"Put's start read back by keep's check after a Stop: a skip in no loop", []Event{w(1, site("put begin"), fr(1, "Put")), stop, r(1, site("keep"), fr(1, "Put"), def(3, "Keep"), fr(4, "keep"))}, true},
		{"Serve's once check, another Serve's start, its own start", []Event{r(1, site("once"), serve), w(2, site("begin"), fr(9, "Serve")), start}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeTakenBack: a unit that stored a session and then tests it in
// Close's take-and-clear block (nil check, logout, clear under one lock)
// finds it cleared by another goroutine's run of that very block, which
// last read the unit's session for its logout (Touch.Guard): the two
// Closes traded places and the session was logged out once (go-smtp's
// Conn.Close, run first by Server.Close, conn.go:166 av). A clear after
// an unlock, a clear that logs nothing out, a Close with an input, a
// clear of another shape, a last read the logout did not use, a write
// between by the unit itself, or no schedule stays a stale read-back.
func TestJudgeTakenBack(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (l *Line) "+name+"(", name)} }
	site := func(mark string) string { return at("// takeclear "+mark, "sess") }
	set := Touch{Step: 1, Site: site("set"), G: "g1"}
	// evs: the unit's SetSession (step 1), another goroutine's clear in
	// its run of method (step 2, after its last read at guard), the
	// unit's check in its own run of method (step 4).
	evs := func(method, check, clear, guard string, prior []Touch) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: site("set"), Frames: []Frame{fr(1, "SetSession")}, Step: 1}
		o := Event{Thread: 2, Unit: 2, Write: true, Site: site(clear), Frames: []Frame{fr(9, method)}, Step: 2}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: site(check), Frames: []Frame{fr(3, method)}, Step: 4, Prior: prior,
			Writes: []Touch{{Step: 2, Site: site(clear), Guard: site(guard), G: "g2"}}}
		return []Event{a, o, b}
	}
	cleared := func(clear string) []Touch { return []Touch{set, {Step: 2, Site: site(clear), G: "g2"}} }
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"Close's check after another Close took the session", evs("Close", "check", "clear", "act", cleared("clear")), false},
		{"the same, no schedule", evs("Close", "check", "clear", "act", nil), true},
		{"the same, the last read before the clear the check, not the logout's", evs("Close", "check", "clear", "check", cleared("clear")), true},
		{"the same, the unit's write not among the writes before the read", evs("Close", "check", "clear", "act", cleared("clear")[1:]), true},
		{"the same, the unit cleared it too before its check", evs("Close", "check", "clear", "act", append(cleared("clear"), Touch{Step: 3, Site: site("reset"), G: "g1"})), true},
		{"CloseSplit's check after another CloseSplit logged out outside the lock", evs("CloseSplit", "split check", "split clear", "split act", cleared("split clear")), true},
		{"Drop's check after another Drop cleared without a logout", evs("Drop", "drop check", "drop clear", "drop check", cleared("drop clear")), true},
		{"CloseAs's check after another CloseAs", evs("CloseAs", "as check", "as clear", "as act", cleared("as clear")), true},
		{"Close's check after a Reset", evs("Close", "check", "reset", "act", cleared("reset")), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeStopFrozen: ants's Submit checks IsClosed on a fast path, and
// Release's CAS and reset of the worker stack under the lock fall before
// retrieve's read of the stack (ants.go:380 asv): the stack stays empty
// after the stop, since the only grow, a worker putting itself back,
// re-checks the flag under the lock, so the stale "open" puts nothing
// there. A worker that puts itself back with no re-check (LeakyPool), a
// Submit that appends its task to the drained queue (QueuePool), a reset
// without the lock, a stop that only shortens the stack, an emptying
// before the flag's write, and a grow the schedule shows after the
// emptying stay judged.
func TestJudgeStopFrozen(t *testing.T) {
	x, at := index(t)
	frame := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name+"(")}
	}
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	ev := func(u, v int, read, write bool, site string, fs ...Frame) Event {
		return Event{Thread: u, Unit: u, Var: v, Read: read, Write: write, Site: site, Frames: fs}
	}
	fp := func(id int32, name string) Frame { return frame(id, "p *FastPool", name) }
	fs := func(id int32, name string) Frame { return frame(id, "s *FastStack", name) }
	check := ev(1, 0, true, false, call("// fast closed", "LoadInt32"), fp(1, "Submit"), fp(2, "IsClosed"))
	cas := ev(2, 0, true, true, call("// fast release", "CompareAndSwapInt32"), fp(9, "Release"))
	casBare := ev(2, 0, true, true, call("// fast release bare", "CompareAndSwapInt32"), fp(9, "ReleaseBare"))
	reset := ev(2, 1, false, true, at("// fast reset", "items"), fp(9, "Release"), fs(10, "reset"))
	reset.Step = 12
	resetBare := ev(2, 1, false, true, at("// fast reset", "items"), fp(9, "ReleaseBare"), fs(10, "reset"))
	detach := ev(3, 1, false, true, at("// fast detach", "items"), fp(20, "Submit"), fp(21, "retrieve"), fs(22, "detach"))
	length := ev(1, 1, true, false, at("// fast len", "items"), fp(1, "Submit"), fp(3, "retrieve"), fs(4, "detach"), fs(5, "len"))
	grown := length
	grown.Writes = []Touch{{Step: 13, Site: at("// fast insert", "items"), G: "g3"}}

	lp := func(id int32, name string) Frame { return frame(id, "p *LeakyPool", name) }
	ls := func(id int32, name string) Frame { return frame(id, "s *LeakyStack", name) }
	leaky := []Event{
		ev(1, 0, true, false, call("// leaky closed", "LoadInt32"), lp(1, "Submit"), lp(2, "IsClosed")),
		ev(2, 0, false, true, call("// leaky release", "StoreInt32"), lp(9, "Release")),
		ev(2, 1, false, true, at("// leaky reset", "items"), lp(9, "Release"), ls(10, "reset")),
		ev(1, 1, true, false, at("// leaky len", "items"), lp(1, "Submit"), ls(4, "detach"), ls(5, "len")),
	}
	qp := func(id int32, name string) Frame { return frame(id, "p *QueuePool", name) }
	queue := []Event{
		ev(1, 0, true, false, call("// queue closed", "Load"), qp(1, "Submit")),
		ev(2, 0, false, true, call("// queue release", "Store"), qp(9, "Release")),
		ev(2, 1, false, true, at("// queue drain", "tasks"), qp(9, "Release")),
		ev(1, 1, false, true, at("// queue append", "tasks"), qp(1, "Submit")),
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"Submit's fast check, Release's CAS and locked reset, retrieve's read of the stack", []Event{check, cas, reset, length}, false},
		{"the same, another Submit's detach before the reset", []Event{check, cas, detach, reset, length}, false},
		{"the same, the schedule shows a worker's insert after the reset", []Event{check, cas, reset, grown}, true},
		{"a reset without the lock", []Event{check, casBare, resetBare, length}, true},
		{"a stop that only shortens the stack", []Event{check, cas, detach, length}, true},
		{"the reset before the flag's write", []Event{check, reset, cas, length}, true},
		{"a worker that puts itself back with no re-check (ants before issue 113)", leaky, true},
		{"a Submit that appends to the queue Release drained", queue, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestUnpublished: a composite literal's field store fills an object no
// one else has yet (newFastStack); a store after the object was stored
// in a shared field (PublishedLeaky) grows a shared structure.
func TestUnpublished(t *testing.T) {
	x, _ := index(t)
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"newFastStack", true},
		{"PublishedLeaky", false},
	} {
		found := false
		for _, fn := range x.all {
			if fn.Name() != tc.fn {
				continue
			}
			for _, blk := range fn.Blocks {
				for _, in := range blk.Instrs {
					st, ok := in.(*ssa.Store)
					if !ok {
						continue
					}
					f, obj := addrField(st.Addr)
					if f == nil || f.Name() != "items" {
						continue
					}
					found = true
					if got := unpublished(obj, st); got != tc.want {
						t.Errorf("%s: unpublished = %v, want %v", tc.fn, got, tc.want)
					}
				}
			}
		}
		if !found {
			t.Errorf("%s: no store of items", tc.fn)
		}
	}
}

// TestJudgeWakeRetried: go-trylock's RUnlock reads the reader count 0
// (an atomic add) and broadcasts; another unit's release and broadcast
// fall between (trylock.go:151 asv). The broadcast only swaps in a fresh
// channel and closes the one it read under the lock, and every waiter
// starts its loop over when woken: an extra wake-up is a retry. A waiter
// that leaves its loop on the wake-up or counts its rounds, a broadcast
// that does not close the channel it replaces or does more, or a getter
// handed out as a method value (a way to a second close), stays judged.
func TestJudgeWakeRetried(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	for _, tc := range []struct {
		typ  string
		want bool
	}{
		{"WakeLock", false},
		{"WakeOnce", true},
		{"WakeCount", true},
		{"WakeKeep", true},
		{"WakeMore", true},
		{"WakeValue", true},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			fr := func(id int32, name string) Frame {
				return Frame{ID: id, Site: at("func (m *"+tc.typ+") "+name+"(", name)}
			}
			mark := strings.ToLower(tc.typ)
			release := call("// "+mark+" release", "AddInt32")
			swap := at("// "+mark+" swap", "ch")
			ev := func(u, v int, read bool, site string, fs ...Frame) Event {
				return Event{Thread: u, Unit: u, Var: v, Read: read, Write: true, Site: site, Frames: fs}
			}
			evs := []Event{
				ev(1, 0, true, release, fr(1, "Unlock")),
				ev(2, 0, true, release, fr(9, "Unlock")),
				ev(2, 1, false, swap, fr(9, "Unlock"), fr(10, "broadcast")),
				ev(1, 1, false, swap, fr(1, "Unlock"), fr(2, "broadcast")),
			}
			v := x.Judge(evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
			if got := x.wakeRetried(evs[0], evs[3]); got == tc.want {
				t.Errorf("wakeRetried = %v, want %v", got, !tc.want)
			}
		})
	}
}

// TestJudgeHanded: moby/locker's Unlock reads back the waiters count its
// Lock added to, another Lock of the name adding between: the read-back
// is judged unless the replay showed it handed on (Event.Handed names
// the unit's write, as check's handed fills it); a Handed naming another
// event leaves it judged.
func TestJudgeHanded(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name+"(")}
	}
	call := func(mark, callee string) string { return shift(at("// handed "+mark, callee+"("), len(callee)) }
	inc, count := call("inc", "AddInt32"), call("count", "LoadInt32")
	evs := func(handed []int) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: inc, Frames: []Frame{fr(1, "l *NameLocks", "Lock"), fr(2, "c *nameCtr", "inc")}}
		o := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: inc, Frames: []Frame{fr(5, "l *NameLocks", "Lock"), fr(6, "c *nameCtr", "inc")}}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: count, Frames: []Frame{fr(3, "l *NameLocks", "Unlock"), fr(4, "c *nameCtr", "count")}, Handed: handed}
		return []Event{a, o, b}
	}
	for _, tc := range []struct {
		name   string
		handed []int
		want   bool
	}{
		{"Unlock's count read back, another Lock's add between", nil, true},
		{"the same, handed on", []int{0}, false},
		{"the same, handed on from another write", []int{1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(evs(tc.handed))
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestAddDelta: the constant of an atomic add at a site; none for an
// add of a variable, an unsigned add (^uint32(0) subtracts one) or a
// load.
func TestAddDelta(t *testing.T) {
	x, at := index(t)
	call := func(mark, callee string) string { return shift(at("// handed "+mark, callee+"("), len(callee)) }
	for _, tc := range []struct {
		site string
		d    int64
		ok   bool
	}{
		{call("inc", "AddInt32"), 1, true},
		{call("dec", "AddInt32"), -1, true},
		{call("add n", "AddInt32"), 0, false},
		{call("hit", "AddUint32"), 0, false},
		{call("count", "LoadInt32"), 0, false},
	} {
		if d, ok := x.AddDelta(tc.site); d != tc.d || ok != tc.ok {
			t.Errorf("AddDelta(%s) = %d, %v, want %d, %v", tc.site, d, ok, tc.d, tc.ok)
		}
	}
}

// TestJudgeWitness: golang-queue's schedule reads the busy count back
// after the worker's decrement and compares it with the limit; an
// earlier read at the same site that took the same branch on a value on
// the far side of the unit's own value (Witness.Delta, own minus the
// witness's) settles the branch the unit's own value takes
// (witnessKept). Without one, on the near side, on the other branch, for
// another write, against another bound's site or a bound loaded before
// the count, through an equality test or a value kept besides, or of a
// count also stored plainly, the stale read-back stays judged.
func TestJudgeWitness(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name+"(")}
	}
	call := func(mark, callee string) string { return shift(at("// witness "+mark, callee+"("), len(callee)) }
	dec, load := call("dec", "AddInt64"), call("load", "LoadInt64")
	bound := at("// witness test", "limit")
	send, full := []string{at("// witness send", "ready")}, []string{at("// witness full", "skipped")}
	busy := []Frame{fr(3, "q *WQueue", "BusyWorkers"), fr(4, "m *wMetric", "BusyWorkers")}
	type wit = Witness
	evs := func(sched Frame, site, bound string, after []string, ws []Witness) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: dec, Frames: []Frame{fr(1, "q *WQueue", "work"), fr(2, "m *wMetric", "DecBusy")}}
		o := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: dec, Frames: []Frame{fr(7, "q *WQueue", "work"), fr(8, "m *wMetric", "DecBusy")}}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: site, Frames: append([]Frame{sched}, busy...), Bound: bound, BoundAfter: after, Witnesses: ws}
		return []Event{a, o, b}
	}
	sched := fr(5, "q *WQueue", "schedule")
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"no witness", evs(sched, load, bound, send, nil), true},
		{"sent, a witness sent on the unit's own value", evs(sched, load, bound, send, []wit{{Of: 0, Delta: 0, After: send}}), false},
		{"sent, a witness sent on one more", evs(sched, load, bound, send, []wit{{Of: 0, Delta: -1, After: send}}), false},
		{"sent, a witness sent on one less", evs(sched, load, bound, send, []wit{{Of: 0, Delta: 1, After: send}}), true},
		{"sent, a witness full on the unit's own value", evs(sched, load, bound, send, []wit{{Of: 0, Delta: 0, After: full}}), true},
		{"full, a witness full on one less", evs(sched, load, bound, full, []wit{{Of: 0, Delta: 1, After: full}}), false},
		{"full, a witness full on one more", evs(sched, load, bound, full, []wit{{Of: 0, Delta: -1, After: full}}), true},
		{"sent, the witness of another write", evs(sched, load, bound, send, []wit{{Of: 1, Delta: 0, After: send}}), true},
		{"sent, a witness path that does not tell", evs(sched, load, bound, send, []wit{{Of: 0, Delta: 0, After: nil}}), true},
		{"a unit path that does not tell", evs(sched, load, bound, nil, []wit{{Of: 0, Delta: 0, After: send}}), true},
		{"another bound's site", evs(sched, load, at("// witness send", "ready"), send, []wit{{Of: 0, Delta: 0, After: send}}), true},
		{"an equality test", evs(fr(5, "q *WQueue", "scheduleEq"), load, at("// witness eq", "limit"), []string{at("// witness eq send", "ready")}, []wit{{Of: 0, Delta: 0, After: []string{at("// witness eq send", "ready")}}}), true},
		{"the limit loaded before the count", evs(fr(5, "q *WQueue", "scheduleFirst"), load, at("// witness first", "limit"), []string{at("// witness first send", "ready")}, []wit{{Of: 0, Delta: 0, After: []string{at("// witness first send", "ready")}}}), true},
		{"the count kept besides", evs(fr(5, "q *WQueue", "scheduleKept"), load, at("if n >= q.limit", "limit"), []string{at("// witness kept send", "ready")}, []wit{{Of: 0, Delta: 0, After: []string{at("// witness kept send", "ready")}}}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
	// A count also stored plainly (wGauge.Reset): no witness settles it.
	gdec, gload := call("gauge dec", "AddInt64"), call("gauge load", "LoadInt64")
	gsend := []string{at("// witness gauge send", "ready")}
	a := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: gdec, Frames: []Frame{fr(1, "g *wGauge", "Dec")}}
	o := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: gdec, Frames: []Frame{fr(2, "g *wGauge", "Dec")}}
	b := Event{Thread: 1, Unit: 1, Read: true, Site: gload, Frames: []Frame{fr(3, "q *WGaugeQueue", "schedule"), fr(4, "g *wGauge", "Load")}, Bound: at("// witness gauge test", "limit"), BoundAfter: gsend, Witnesses: []Witness{{Of: 0, Delta: 0, After: gsend}}}
	if v := x.Judge([]Event{a, o, b}); !v.Holds {
		t.Errorf("Judge of a plainly stored count = false, want true")
	}
}

// TestJudgeMadeEntry: moby/locker's Lock finding the name's entry between
// another Lock's create (locker.go:81) and its Unlock's delete (:106),
// done with it before the delete, saw what its own get-or-create would
// have made (madeEntry); each condition failing keeps the intermediate
// state judged.
func TestJudgeMadeEntry(t *testing.T) {
	x, at := index(t)
	frame := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (n *Made) "+name+"(", name)}
	}
	const key = 77
	// evs: the unit's create in maker, the reader's lookup in reader,
	// the unit's delete in unlock.
	type opt struct {
		settled bool
		since   int // the reader's first lookup of the key (second)
		prior   []Touch
		writes  []Touch
		rkey    int64
	}
	good := func() opt {
		return opt{settled: true, since: 2, prior: []Touch{{Step: 1, Site: "create", G: "g1"}}, writes: []Touch{{Step: 1, G: "g1"}, {Step: 3, G: "g1"}}, rkey: key}
	}
	evs := func(maker, create, reader, lookup, unlock, del string, o opt) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Write: true, Site: at(create, "["), Frames: []Frame{frame(1, maker)}, Step: 1, Key: key},
			{Thread: 2, Unit: 2, Read: true, Site: at(lookup, "["), Frames: []Frame{frame(9, reader)}, Step: 2, Since: 2, Key: o.rkey, Prior: o.prior, Writes: o.writes, Settled: o.settled},
			{Thread: 1, Unit: 1, Write: true, Site: at(del, "("), Frames: []Frame{frame(2, unlock)}, Step: 3, Key: key},
		}
	}
	with := func(f func(*opt)) opt {
		o := good()
		f(&o)
		return o
	}
	made := func(o opt) []Event {
		return evs("Lock", "// made create", "Lock", "// made lookup", "Unlock", "// made delete", o)
	}
	// second: the reader's read is its Unlock's lookup, after its first
	// lookup of the key at first (Since, step 2; 0: none, the read is
	// the first).
	second := func(o opt, first string) []Event {
		e := evs("Lock", "// made create", "Unlock", "// made unlock lookup", "Unlock", "// made delete", o)
		e[1].Step, e[2].Step = 3, 4
		e[1].Since = 3
		if o.since != 0 {
			e[1].Since = o.since
			e[1].Looks = []Touch{{Step: o.since, Site: at(first, "["), G: "g2"}}
		}
		e[2].Step = 4
		for k := range e[1].Writes {
			if e[1].Writes[k].Step == 3 {
				e[1].Writes[k].Step = 4
			}
		}
		return e
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"found the made entry, done before the delete", made(good()), false},
		{"the reader still counted or holding the entry's lock at the delete", made(with(func(o *opt) { o.settled = false })), true},
		{"the map written between the create and the lookup", made(with(func(o *opt) { o.prior = append(o.prior, Touch{Step: 2, Site: "other", G: "g3"}) })), true},
		{"the writes between not known", made(with(func(o *opt) { o.prior = nil })), true},
		{"another goroutine's write between the lookup and the delete", made(with(func(o *opt) { o.writes = append(o.writes, Touch{Step: 2, G: "g3"}) })), true},
		{"another key looked up", made(with(func(o *opt) { o.rkey = key + 1 })), true},
		{"a create branch that locks the new entry", evs("LockHeld", "// made held create", "Lock", "// made lookup", "Unlock", "// made delete", good()), true},
		{"a reader whose create branch locks the new entry", evs("Lock", "// made create", "LockHeld", "// made held lookup", "Unlock", "// made delete", good()), true},
		{"a create branch that stores something else", evs("LockCounting", "// made counting create", "Lock", "// made lookup", "Unlock", "// made delete", good()), true},
		{"a found value used apart from the made one", evs("Lock", "// made create", "LockApart", "// made apart lookup", "Unlock", "// made delete", good()), true},
		{"a create outside the lookup's lock", evs("LockUnlocked", "// made unlocked create", "Lock", "// made lookup", "Unlock", "// made delete", good()), true},
		{"an entry with a data field", evs("LockData", "// made data create", "LockData", "// made data lookup", "UnlockData", "// made data delete", good()), true},
		{"an entry whose add's result is kept", evs("LockKept", "// made kept create", "LockKept", "// made kept lookup", "UnlockKept", "// made kept delete", good()), true},
		{"the reader's Unlock looking up the entry its Lock got", second(good(), "// made lookup"), false},
		{"the reader's Unlock, no lookup of the key before", second(with(func(o *opt) { o.since = 0 }), "// made lookup"), true},
		{"the reader's Unlock, first looked up outside a get-or-create", second(good(), "// made unlock lookup"), true},
		{"the reader's Unlock, first looked up before the create", second(with(func(o *opt) { o.since = 1 }), "// made lookup"), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := x.Judge(c.evs)
			if v.Holds != c.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, c.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeCallResult: ants' Submit reads the running count for its
// capacity check, and then run adds one to it and drops the sum; only
// the goroutine run starts tests its own sum (another call of
// addRunning). The sum the unit computed is not used, so a check that
// decided the error Submit returns does not mix with it. Where the
// unit's own call returns its sum (runCounted, into SubmitCounted's
// result), the two mix. runLater's goroutine tests a sum of its own
// while the unit's call, after the go statement, drops its.
func TestJudgeCallResult(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (c *Squad) "+name+"(", name+"(")}
	}
	add := shift(at("return atomic.AddInt32(&c.running, d) // squad add", "AddInt32("), len("AddInt32"))
	other := Event{Thread: 2, Unit: 2, Var: 1, Read: true, Write: true, Site: add, Frames: []Frame{fr(9, "addRunning")}}
	for _, tc := range []struct {
		unit, run string
		want      bool
	}{
		{"Submit", "run", false},
		{"SubmitLater", "runLater", false},
		{"SubmitCounted", "runCounted", true},
	} {
		t.Run(tc.unit, func(t *testing.T) {
			read := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: shift(at("return atomic.LoadInt32(&c.running) // squad running", "LoadInt32("), len("LoadInt32")), Frames: []Frame{fr(1, tc.unit), fr(2, "Running")}}
			sum := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: add, Frames: []Frame{fr(1, tc.unit), fr(3, tc.run), fr(4, "addRunning")}}
			v := x.Judge([]Event{read, other, sum})
			if v.Holds != tc.want {
				t.Errorf("Judge = %v, %q: %s; want %v", v.Holds, v.Kind, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeSuperseded: istio's Cache.Set adds to its write count, loads
// it and sets the writes gauge to the total; another Set's add between
// is read back, but the value is only stored, and the replay shows each
// adder between storing the gauge again at the same site from its own
// load (Event.Superseded): no stale read-back (superseded). Without that
// trace, with a store it does not show overwritten, or with the value
// also compared, used as a key or returned (an id generator), it stays.
func TestJudgeSuperseded(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, recv, name string) Frame {
		return Frame{ID: id, Site: at("func ("+recv+") "+name+"(", name+"(")}
	}
	call := func(mark, callee string) string { return shift(at("// superseded "+mark, callee+"("), len(callee)) }
	store := at("// superseded store", "v = v")
	kept := at("// superseded kept store", "last")
	evs := func(name, add, load string, inner []Frame, sup []string) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Write: true, Site: add, Frames: []Frame{fr(1, "c *SCache", name)}}
		o := Event{Thread: 2, Unit: 2, Read: true, Write: true, Site: add, Frames: []Frame{fr(5, "c *SCache", name)}}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: load, Frames: append([]Frame{fr(1, "c *SCache", name)}, inner...), Superseded: sup}
		return []Event{a, o, b}
	}
	set := []Frame{fr(2, "c *SCache", "record"), fr(3, "c *SCache", "stats")}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a gauge, superseded", evs("Set", call("add", "Add"), call("load", "Load"), set, []string{store}), false},
		{"a gauge, no trace", evs("Set", call("add", "Add"), call("load", "Load"), set, nil), true},
		{"a gauge, another store superseded", evs("Set", call("add", "Add"), call("load", "Load"), set, []string{kept}), true},
		{"an id, keying and returned", evs("SetID", call("id add", "Add"), call("id load", "Load"), nil, []string{store}), true},
		{"kept besides, one store superseded", evs("SetKept", call("kept add", "Add"), call("kept load", "Load"), nil, []string{store}), true},
		{"kept besides, both superseded", evs("SetKept", call("kept add", "Add"), call("kept load", "Load"), nil, []string{store, kept}), false},
		{"compared", evs("SetCmp", call("cmp add", "Add"), call("cmp load", "Load"), nil, []string{store}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeHighBits: prometheus' histogram's Observe adds 1 to a word
// whose top bit picks the shard it then adds to; another Observe's +1
// between changes only the count bits below (histogram.go:910 asv,
// false). A flip of the top bit between, a shard picked by a low bit or
// by bit 40, or a word some code stores any value in stays judged.
func TestJudgeHighBits(t *testing.T) {
	x, at := index(t)
	site := func(mark string) string { return shift(at("// "+mark, "AddUint64("), len("AddUint64")) }
	evs := func(recv, observe, shard, between string) []Event {
		fr := []Frame{{ID: 1, Site: at("func (h *"+recv+") Observe(", "Observe(")}}
		a := Event{Thread: 1, Unit: 1, Var: 0, Read: true, Write: true, Site: site(observe), Frames: fr, Step: 1}
		w := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: site(between), Frames: []Frame{{ID: 9, Site: fr[0].Site}}, Step: 2}
		b := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Write: true, Site: site(shard), Frames: fr, Step: 3}
		return []Event{a, w, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"another Observe's +1 between: the top bit kept", evs("HotCold", "hc observe", "hc shard", "hc observe"), false},
		{"a flip of the top bit between", evs("HotCold", "hc observe", "hc shard", "hc flip"), true},
		{"the shard picked by the count's low bit", evs("HotColdLow", "hc low observe", "hc low shard", "hc low observe"), true},
		{"the shard picked by bit 40", evs("HotColdMid", "hc mid observe", "hc mid shard", "hc mid observe"), true},
		{"a word some code stores any value in", evs("HotColdSet", "hc set observe", "hc set shard", "hc set observe"), true},
		{"a word reset to the hot bit and a count of 1", evs("HotColdReset", "hc reset observe", "hc reset shard", "hc reset observe"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeCASAdd: prometheus' histogram's Write flips the hot index and
// adds the cold sum into the new hot one by a CAS loop; an Observe
// between reads the new index and adds to the same sum by the same loop
// (histogram.go:794 asv, false): the two adds commute, so the Observe's
// read of the sum gave it nothing. A store of the sum, or a CAS that
// gives up when it fails, stays judged.
func TestJudgeCASAdd(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) []Frame {
		return []Frame{{ID: id, Site: at("func (h *HotColdSum) "+name+"(", name+"(")}}
	}
	add := func(mark string) string { return shift(at("// "+mark, "AddUint64("), len("AddUint64")) }
	cas := func(mark string) string {
		return shift(at("// "+mark, "CompareAndSwapUint64("), len("CompareAndSwapUint64"))
	}
	evs := func(merge, flip string, b Event) []Event {
		a := Event{Thread: 1, Unit: 1, Var: 0, Read: true, Write: true, Site: add(flip), Frames: fr(1, merge), Step: 1}
		r1 := Event{Thread: 2, Unit: 2, Var: 0, Read: true, Write: true, Site: add("hcs observe"), Frames: fr(9, "Observe"), Step: 2}
		r2 := Event{Thread: 2, Unit: 2, Var: 1, Read: true, Write: true, Site: cas("hcs cas"), Frames: fr(9, "Observe"), Step: 3}
		b.Thread, b.Unit, b.Var, b.Frames, b.Step = 1, 1, 1, fr(1, merge), 4
		return []Event{a, r1, r2, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the merge's CAS-loop add", evs("Merge", "hcs flip", Event{Read: true, Write: true, Site: cas("hcs cas")}), false},
		{"a store of the sum", evs("MergeStore", "hcs flip store", Event{Write: true, Site: shift(at("// hcs store", "StoreUint64("), len("StoreUint64"))}), true},
		{"a CAS that gives up when it fails", evs("MergeOnce", "hcs flip once", Event{Read: true, Write: true, Site: cas("hcs try")}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeAnsweredAlike: another goroutine reads the state between the
// unit's two writes and only compares it with constants. socket.io's
// HttpContext (dep.go's Reply): Write stores committed (1), then
// state|finalizing; Done's Load() != 0 is true on both, as after the
// whole Write (answeredAlike). A test that the two values answer apart
// (finalizing's bit, equality with committed, a reset to 0), a value
// returned or compared with a variable, stays judged; a CAS from a
// constant lets the value before it answer for the serial order too.
func TestJudgeAnsweredAlike(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame { return Frame{ID: id, Site: at("func (c *Reply) "+name+"(", name)} }
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	reader := func(name, callee string) Event {
		return Event{Thread: 2, Unit: 2, Read: true, Site: call("func (c *Reply) "+name+"(", callee), Frames: []Frame{fr(9, name)}}
	}
	pair := func(first, second string, r Event, frames ...Frame) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: call("// "+first, "Store"), Frames: frames[:1]}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: call("// "+second, "Store"), Frames: frames}
		return []Event{a, r, b}
	}
	write, finish := fr(1, "Write"), fr(2, "finish")
	over, claim := fr(1, "WriteOver"), fr(1, "Claim")
	claimed := func(r Event) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Read: true, Write: true, Site: call("// reply claim", "CompareAndSwap"), Frames: []Frame{claim}},
			r,
			{Thread: 1, Unit: 1, Write: true, Site: call("// reply release", "Store"), Frames: []Frame{claim}},
		}
	}
	rename := func(r Event) []Event {
		return []Event{
			{Thread: 1, Unit: 1, Write: true, Site: at("// reply busy", "name"), Frames: []Frame{fr(1, "Rename")}},
			r,
			{Thread: 1, Unit: 1, Write: true, Site: at("// reply idle", "name"), Frames: []Frame{fr(1, "Rename")}},
		}
	}
	named := func(name, col string) Event {
		return Event{Thread: 2, Unit: 2, Read: true, Site: at("func (c *Reply) "+name+"(", col), Frames: []Frame{fr(9, name)}}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"a zero test, committed then state|finalizing", pair("reply commit", "reply finish", reader("Done", "Load"), write, finish), false},
		{"a test of the committed bit, which state|finalizing does not fix", pair("reply commit", "reply finish", reader("Committed", "Load"), write, finish), true},
		{"a test of the finalizing bit", pair("reply commit", "reply finish", reader("Finalizing", "Load"), write, finish), true},
		{"equality with committed", pair("reply commit", "reply finish", reader("OnlyCommitted", "Load"), write, finish), true},
		{"the value returned", pair("reply commit", "reply finish", reader("State", "Load"), write, finish), true},
		{"compared with a variable", pair("reply commit", "reply finish", reader("Against", "Load"), write, finish), true},
		{"a zero test, committed then reset to 0", pair("reply commit over", "reply reset", reader("Done", "Load"), over, over), true},
		{"a test of the finalizing bit on a claim from 0", claimed(reader("Finalizing", "Load")), false},
		{"a zero test on a claim from 0", claimed(reader("Done", "Load")), true},
		{"a zero test, then another read's test that committed answers otherwise", pair("reply commit", "reply finish", reader("Claimed", "Load"), write, finish), true},
		{"a string test both names pass", rename(named("Named", "name !=")), false},
		{"a string test the names answer apart", rename(named("Idle", "name ==")), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(tc.evs)
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s), want %v", v.Holds, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeMergedHeader: smux's recvLoop waits at the top of each round
// of a for {} while its token bucket is empty, then takes a frame's
// length from it; a reader's return between the take and the next
// round's wait is read by a check each round makes afresh. go/ssa threads
// the for {}'s empty header onto the wait loop's, and forward followed
// that back edge as the wait loop's own round (smux's session.go:531 av,
// false, session 45's trial 27). The wait loop's own rounds, and a
// read-back within one round, stay judged.
func TestJudgeMergedHeader(t *testing.T) {
	x, at := index(t)
	call := func(line, callee string) string { return shift(at(line, callee+"("), len(callee)) }
	method := func(name string) string { return shift(at("func (b *RecvBucket) "+name+"(", ") "+name), 2) }
	recv, over, ret := Frame{ID: 1, Site: method("Recv")}, Frame{ID: 1, Site: method("Overdrawn")}, Frame{ID: 9, Site: method("Return")}
	take, wait, spin := call("// recvbucket take", "AddInt32"), call("// recvbucket wait", "LoadInt32"), call("// recvbucket spin", "AddInt32")
	// The shape: the take's block jumps straight to the wait loop's
	// header, which the wait loop's body also jumps back to.
	ins := x.instrs[take]
	if len(ins) == 0 {
		t.Fatalf("no instruction at %s", take)
	}
	hdr := x.instrs[wait][0].Block()
	if hdr.Comment != "for.loop" || !slices.Contains(ins[0].Block().Succs, hdr) {
		t.Fatalf("the take's block %s jumps to %v, want the wait loop's header %s (for.loop)", ins[0].Block(), ins[0].Block().Succs, hdr)
	}
	ev := func(u int, read, write bool, site string, fr Frame) Event {
		return Event{Thread: u, Unit: u, Read: read, Write: write, Site: site, Frames: []Frame{fr}}
	}
	for _, c := range []struct {
		name string
		a, b Event
		want bool
	}{
		{"the take, then the next round's wait", ev(1, true, true, take, recv), ev(1, true, false, wait, recv), true},
		{"a spin of the wait loop, then its next test", ev(1, true, true, spin, recv), ev(1, true, false, wait, recv), false},
		{"the take, then the read-back in the same round", ev(1, true, true, call("// overdrawn take", "AddInt32"), over), ev(1, true, false, call("// overdrawn check", "LoadInt32"), over), false},
	} {
		if got := x.nextIteration(c.a, c.b); got != c.want {
			t.Errorf("%s: nextIteration = %v, want %v", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the take, a return, then the next round's wait", []Event{
			ev(1, true, true, take, recv),
			ev(2, true, true, call("// recvbucket return", "AddInt32"), ret),
			ev(1, true, false, wait, recv),
		}, false},
		{"the take, a return, then the read-back in the same round", []Event{
			ev(1, true, true, call("// overdrawn take", "AddInt32"), over),
			ev(2, true, true, call("// recvbucket return", "AddInt32"), ret),
			ev(1, true, false, call("// overdrawn check", "LoadInt32"), over),
		}, true},
	} {
		if v := x.Judge(c.evs); v.Holds != c.want {
			t.Errorf("%s: Judge = %v, %q: %s; want %v", c.name, v.Holds, v.Kind, v.Why, c.want)
		}
	}
}

// TestJudgeAppendedPrefix: seaweedfs/raft's commitInfo (log.go:542 asv)
// reads the commit index and the committed entry by index under one read
// lock between the leader's append and its commit, each under the lock
// on its own: what it loads is below the old length, as before the
// append, in either order of its two reads. A reader that takes the
// length or a slice of the entries, or indexes by the length, sees the
// append, and a write that is
// not an append of the variable it stores into changes old elements:
// both stay judged.
func TestJudgeAppendedPrefix(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (l *RaftLog) "+name+"(", name+"(")}
	}
	const entries, commit = 1, 2
	write := func(fn, mark, col string) Event {
		return Event{Thread: 1, Unit: 1, Var: entries, Write: true, Site: at("// raftlog "+mark, col), Frames: []Frame{fr(1, fn)}}
	}
	b := Event{Thread: 1, Unit: 1, Var: commit, Write: true, Site: at("l.commit = n // raftlog commit", "commit"), Frames: []Frame{fr(2, "SetCommit")}}
	read := func(fn string, v int, mark, col string) Event {
		return Event{Thread: 2, Unit: 2, Var: v, Read: true, Site: at("// raftlog "+mark, col), Frames: []Frame{fr(9, fn)}}
	}
	appendE := write("Append", "append", "entries")
	// steps numbers the events 10 to 40 and gives each read the replay's
	// writes of its variable: a's and b's, and extra ones (Var, Step).
	steps := func(a, r1, r2 Event, extra ...Event) []Event {
		evs := []Event{a, r1, r2, b}
		for k := range evs {
			evs[k].Step = (k + 1) * 10
		}
		for k := 1; k <= 2; k++ {
			evs[k].Writes = []Touch{}
			for _, w := range append([]Event{evs[0], evs[3]}, extra...) {
				if w.Var == evs[k].Var {
					evs[k].Writes = append(evs[k].Writes, Touch{Step: w.Step, Site: w.Site, G: "g1"})
				}
			}
		}
		return evs
	}
	info := func() (Event, Event) {
		return read("CommitInfo", commit, "commit zero", "commit"), read("CommitInfo", entries, "committed entry", "entries")
	}
	r1, r2 := info()
	noSchedule := steps(appendE, r1, r2)
	noSchedule[1].Writes, noSchedule[2].Writes = nil, nil
	if v := x.Judge(noSchedule); !v.Holds {
		t.Errorf("no schedule: Judge = false, want true")
	}
	again := b
	again.Step = 15
	if v := x.Judge(steps(appendE, r1, r2, again)); !v.Holds {
		t.Errorf("a commit written between the append and its read: Judge = false, want true")
	}
	more := appendE
	more.Step = 15
	if v := x.Judge(steps(appendE, r1, r2, more)); !v.Holds {
		t.Errorf("another append before the entries' read: Judge = false, want true")
	}
	for _, tc := range []struct {
		name   string
		a      Event
		r1, r2 Event
		want   bool
	}{
		{"commitInfo between append and commit: the commit index, then the committed entry", appendE, read("CommitInfo", commit, "commit zero", "commit"), read("CommitInfo", entries, "committed entry", "entries"), false},
		{"the same, the entries read first", appendE, read("CommitInfo", entries, "committed entry", "entries"), read("CommitInfo", commit, "committed entry", "commit"), false},
		{"the count of entries beside the commit index", appendE, read("Status", entries, "status", "entries"), read("Status", commit, "status commit", "commit"), true},
		{"the last entry, by the length taken first", appendE, read("LastEntry", commit, "last zero", "commit"), read("LastEntry", entries, "last entry", "entries"), true},
		{"the entries past the commit index, sliced", appendE, read("Uncommitted", commit, "uncommitted zero", "commit"), read("Uncommitted", entries, "uncommitted slice", "entries"), true},
		{"an append to another slice stored in", write("AppendSpare", "append spare", "entries"), read("CommitInfo", commit, "commit zero", "commit"), read("CommitInfo", entries, "committed entry", "entries"), true},
		{"a prepend", write("Prepend", "prepend", "entries"), read("CommitInfo", commit, "commit zero", "commit"), read("CommitInfo", entries, "committed entry", "entries"), true},
		{"an element written in place", write("Restamp", "restamp", "entries"), read("CommitInfo", commit, "commit zero", "commit"), read("CommitInfo", entries, "committed entry", "entries"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := x.Judge(steps(tc.a, tc.r1, tc.r2))
			if v.Holds != tc.want {
				t.Errorf("Judge = %v (%s: %s), want %v", v.Holds, v.Kind, v.Why, tc.want)
			}
			t.Logf("%v: %s", v.Holds, v)
		})
	}
}

// TestJudgeRereadAbove: two transitions of a state machine, the second
// in a later activation whose own check of the state decides it
// (seaweedfs/raft's followerLoop, then candidateLoop's `for s.State() ==
// Candidate` around setState(Leader)): a reader of the state between
// them sees a published state. A second transition with no re-check, a
// re-check in an activation that made the first too, or a re-read only
// copied stay held.
func TestJudgeRereadAbove(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (m *Machine) "+name+"(", name+"(")}
	}
	set := at("m.state = s // machine set", "state")
	r := Event{Thread: 2, Unit: 2, Read: true, Site: at("return m.state // machine state", "state"), Frames: []Frame{fr(9, "State")}}
	w := func(fs ...Frame) Event {
		return Event{Thread: 1, Unit: 1, Write: true, Site: set, Frames: fs}
	}
	for _, tc := range []struct {
		name string
		a, b Event
		want bool
	}{
		{"the loop's follow, then campaign's checked promotion", w(fr(1, "Loop"), fr(2, "follow"), fr(3, "setState")), w(fr(1, "Loop"), fr(4, "campaign"), fr(5, "setState")), false},
		{"Elect: follow, then promote with no re-check", w(fr(1, "Elect"), fr(2, "follow"), fr(3, "setState")), w(fr(1, "Elect"), fr(4, "promote"), fr(5, "setState")), true},
		{"ElectChecked: the re-check in the activation that made a", w(fr(1, "ElectChecked"), fr(2, "setState")), w(fr(1, "ElectChecked"), fr(3, "setState")), true},
		{"ElectCopy: the later activation copies the state", w(fr(1, "ElectCopy"), fr(2, "follow"), fr(3, "setState")), w(fr(1, "ElectCopy"), fr(4, "promoteCopy"), fr(5, "setState")), true},
	} {
		if v := x.Judge([]Event{tc.a, r, tc.b}); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
}

// TestJudgeSameStored: a setter called twice with one constant (raft's
// runFollower clearing the leader with setLeader("", ""), then
// setState's setLeader("", "")): another goroutine's setLeader between
// reads the value the unit leaves (sameStored), and the unit's read-back
// after that goroutine's own empty leader reads its own value
// (constBack). A second call with a variable, a caller that passes a
// variable too, or calls a function value, a write between of an
// unknown value, or no schedule stay held.
func TestJudgeSameStored(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (l *Leader) "+name+"(", name+"(")}
	}
	set, old := at("l.addr = addr // leader set", "addr"), at("old := l.addr // leader old", "addr")
	w := func(u int, step int, fs ...Frame) Event {
		return Event{Thread: u, Unit: u, Write: true, Site: set, Frames: fs, Step: step}
	}
	rd := func(u int, step int, fs ...Frame) Event {
		return Event{Thread: u, Unit: u, Read: true, Site: old, Frames: fs, Step: step}
	}
	touch := func(es ...Event) []Touch {
		var ts []Touch
		for _, e := range es {
			ts = append(ts, Touch{Step: e.Step, Site: e.Site, G: fmt.Sprint("g", e.Thread)})
		}
		return ts
	}
	shut := []Frame{fr(9, "Shutdown"), fr(10, "setState"), fr(11, "setLeader")}
	// wrw is a, the reader's read (its Prior: a and more), b.
	wrw := func(a, b Event, more ...Event) []Event {
		r := rd(2, 20, shut...)
		r.Prior = touch(append([]Event{a}, more...)...)
		b.Step = 30
		return []Event{a, r, b}
	}
	timeoutA, timeoutB := w(1, 10, fr(1, "Timeout"), fr(2, "setLeader")), w(1, 30, fr(1, "Timeout"), fr(3, "setState"), fr(4, "setLeader"))
	win := w(7, 15, fr(20, "Win"), fr(21, "setLeader"))
	noSchedule := wrw(timeoutA, timeoutB)
	noSchedule[1].Prior = nil
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"Timeout's two empty leaders, Shutdown's setLeader between", wrw(timeoutA, timeoutB), false},
		{"the same, with no schedule", noSchedule, true},
		{"the same, with another write between of a variable", wrw(timeoutA, timeoutB, win), true},
		{"Win: setState's empty leader, then itself", wrw(w(1, 10, fr(1, "Win"), fr(2, "setState"), fr(3, "setLeader")), w(1, 30, fr(1, "Win"), fr(4, "setLeader"))), true},
		{"Reset: its caller passes a variable too", wrw(w(1, 10, fr(1, "Reset"), fr(2, "setLeader")), w(1, 30, fr(1, "Reset"), fr(3, "setLeader"))), true},
		{"Via: its caller calls a function value", wrw(w(1, 10, fr(1, "Via"), fr(2, "setLeader")), w(1, 30, fr(1, "Via"), fr(3, "setState"), fr(4, "setLeader"))), true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
	// The unit's read-back (setState's setLeader reads the old leader)
	// after Shutdown's empty leader, or Win's variable one.
	back := func(mid Event) []Event {
		b := rd(1, 30, fr(1, "Timeout"), fr(3, "setState"), fr(4, "setLeader"))
		b.Prior = touch(timeoutA, mid)
		return []Event{timeoutA, mid, b}
	}
	if v := x.Judge(back(w(2, 20, shut...))); v.Holds {
		t.Errorf("read-back after Shutdown's empty leader: Judge = true (%s), want false", v)
	}
	if v := x.Judge(back(w(2, 20, fr(20, "Win"), fr(21, "setLeader")))); !v.Holds {
		t.Errorf("read-back after Win's leader: Judge = false, want true")
	}
}

func TestJudgeCheckedAlike(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (s *Srv) "+name+"(", name+"(")}
	}
	running := at(`return s.state != "stopped" && s.state != "initialized" // srv running`, "state")
	running2 := at(`return s.state != "stopped" && s.state != "initialized" // srv running`, `state != "initialized"`)
	started := at(`return s.state != "stopped" // srv started`, "state")
	stopped := at(`return s.state == "stopped" // srv stopped`, "state")
	set := at(`s.state = st // srv set`, "state")
	// wrw is Start's unit: a at site in frames outer, then a vote's read
	// of reader's site, then setState's write.
	wrw := func(outer, site, callee, rsite string) []Event {
		voter := "vote"
		if callee == "Stopped" {
			voter = "voteStopped"
		}
		a := Event{Thread: 1, Unit: 1, Write: true, Site: at("// "+site, "state"), Frames: []Frame{fr(1, "Start"), fr(2, outer)}, Step: 10}
		a.Checked = []Checked{{Call: fr(0, callee).Site, Reads: []string{rsite}}}
		if rsite == running {
			a.Checked[0].Reads = append(a.Checked[0].Reads, running2)
		}
		r := Event{Thread: 2, Unit: 2, Read: true, Site: rsite, Frames: []Frame{fr(5, voter), fr(6, callee)}, Step: 20, Steady: true}
		r.Prior = []Touch{{Step: 10, Site: a.Site, G: "g1"}}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: set, Frames: []Frame{fr(1, "Start"), fr(3, "setState")}, Step: 30}
		return []Event{a, r, b}
	}
	unchecked := wrw("Init", "srv init", "Running", running)
	unchecked[0].Checked = nil
	unsteady := wrw("Init", "srv init", "Running", running)
	unsteady[1].Steady = false
	openLast := wrw("Init", "srv init", "Running", running)
	openLast[1].Open = running2
	openFirst := wrw("Init", "srv init", "Running", running)
	openFirst[1].Open = running
	twice := wrw("Init", "srv init", "Running", running)
	twice[0].Unchecked = []string{fr(0, "Running").Site}
	other := wrw("Init", "srv init", "Running", running)
	other[0].Checked[0].Call = fr(0, "Stopped").Site
	between := wrw("Init", "srv init", "Running", running)
	between[1].Prior = append(between[1].Prior, Touch{Step: 15, Site: set, G: "g3"})
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"Init checked Running, a vote's Running between: false, as before the Start", wrw("Init", "srv init", "Running", running), false},
		{"the same, no check in the schedule", unchecked, true},
		{"the same, Running called before a write too", twice, true},
		{"the same, only another function's check in the schedule", other, true},
		{"the same, the schedule ending after the vote's last read", openLast, false},
		{"the same, the schedule ending before the vote's second read", openFirst, true},
		{"the same, the vote's reads saw two writes", unsteady, true},
		{"the same, another write between a and the vote", between, true},
		{"InitStopped checked Stopped, which Initialized answers otherwise", wrw("InitStopped", "srv init stopped", "Stopped", stopped), true},
		{"InitTwice asks Running twice", wrw("InitTwice", "srv init twice", "Running", running), true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
	// A predicate of the state alone, and one that reads the term too.
	init := abstract{ok: true, set: []constant.Value{constant.MakeString("initialized")}}
	for _, tc := range []struct {
		name, site string
		ok, want   bool
	}{
		{"Running", running, true, false},
		{"Started: true, or false from the recover block", started, false, false},
		{"Stopped", stopped, true, false},
		{"Peeked", at(`s.state != "stopped" && s.term > 0 // srv peeked`, "state"), false, false},
	} {
		rs := x.reads(tc.site, nil)
		if len(rs) != 1 {
			t.Fatalf("%s: %d reads at %s", tc.name, len(rs), tc.site)
		}
		loads, _ := siblingReads(rs[0])
		got, ok := predicateOn(rs[0].Parent(), loads, init)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("predicateOn(%s, initialized) = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestJudgeStoredAgain: hashicorp/raft's FullyConnect stores one peer's
// pointer twice in a transport's peers map, and another goroutine's
// makeRPC looks the peer up between: an intermediate state, unless the
// replay's trace shows the two stores storing one value with no write of
// the element between (Event.Again, storedAgain).
func TestJudgeStoredAgain(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (t *Transport) "+name+"(", name+"(")}
	}
	full := Frame{ID: 1, Site: at("func FullyConnect(", "FullyConnect(")}
	connect, lookup := at("t.peers[addr] = p // transport connect", "["), at("p, ok := t.peers[addr] // transport lookup", "[")
	a := Event{Thread: 1, Unit: 1, Write: true, Site: connect, Key: 7, Step: 10, Frames: []Frame{full, fr(2, "Connect")}}
	b := Event{Thread: 1, Unit: 1, Write: true, Site: connect, Key: 7, Step: 30, Frames: []Frame{full, fr(5, "Connect")}}
	r := Event{Thread: 2, Unit: 2, Read: true, Site: lookup, Key: 7, Step: 20, Frames: []Frame{fr(9, "MakeRPC")}}
	again := func(pairs ...[2]int) []Event {
		rr := r
		rr.Again = pairs
		return []Event{a, rr, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"no identity recorded", again(), true},
		{"one pointer stored twice, nothing between (Again)", again([2]int{0, 2}), false},
		{"Again for another pair only", again([2]int{2, 0}), true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
}

// TestJudgeUnused: goresilience's circuit breaker resets its window twice
// in one Run, and the window slider's tick between reads the first
// reset's window and index and only stores from them (dep.go's Slider):
// the intermediate state is withdrawn when the replay's trace shows
// those stores dead (Event.Unused) and the static side finds the value
// reaching nothing but stores, or branches deciding only stores into
// fields of the receiver (unusedRead); not when the value reaches a
// call, a branch deciding a call, or a phi round a loop.
func TestJudgeUnused(t *testing.T) {
	x, at := index(t)
	fr := func(id int32, name string) Frame {
		return Frame{ID: id, Site: at("func (w *Slider) "+name+"(", name+"(")}
	}
	restart := Frame{ID: 1, Site: at("func (w *Slider) Restart(", "Restart(")}
	reset, next := at("w.buckets = buckets // slider reset", "buckets ="), at("w.next = 1 // slider next", "next")
	slide := at("w.buckets[w.next] = b // slider slide", "buckets")
	wrap, wrapNext := at("if w.next >= len(w.buckets) { // slider wrap", "buckets)"), at("if w.next >= len(w.buckets) { // slider wrap", "next >=")
	note := at("w.note(len(w.buckets)) // slider note", "buckets")
	noted := at("if w.next >= len(w.buckets) { // slider wrap noted", "buckets)")
	across := at("last = w.buckets // slider across", "buckets")
	divided := at("w.next = w.size / len(w.buckets) // slider divided", "buckets)")
	kept := at("kept.buckets = w.buckets // slider kept", "buckets //")
	evs := func(write, read string, reader string, unused bool) []Event {
		a := Event{Thread: 1, Unit: 1, Write: true, Site: write, Step: 10, Frames: []Frame{restart, fr(2, "Reset")}}
		b := Event{Thread: 1, Unit: 1, Write: true, Site: write, Step: 30, Frames: []Frame{restart, fr(5, "Reset")}}
		r := Event{Thread: 2, Unit: 2, Read: true, Site: read, Step: 20, Frames: []Frame{fr(9, reader)}, Unused: unused}
		return []Event{a, r, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"the tick's element store, not shown dead", evs(reset, slide, "Slide", false), true},
		{"the tick's element store, dead (Unused)", evs(reset, slide, "Slide", true), false},
		{"the length deciding the index's wrap, dead", evs(reset, wrap, "Slide", true), false},
		{"the index deciding its own wrap, dead", evs(next, wrapNext, "Slide", true), false},
		{"the length passed to a method", evs(reset, note, "SlideLogged", true), true},
		{"the length deciding a call", evs(reset, noted, "SlideWrapNoted", true), true},
		{"the window carried round a loop", evs(reset, across, "SlideAcross", true), true},
		{"the length dividing", evs(reset, divided, "SlideDivided", true), true},
		{"the window kept in a local (checked by the trace: Must)", evs(reset, kept, "SlideKept", true), false},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
	// What check reads the trace for: the element store's sites, and the
	// index the wrap may store into, named by its accesses before the
	// branch.
	sk, ok := x.UnusedSinks(slide)
	if !ok || !slices.Contains(sk.Sites, shift(slide, 7)) || len(sk.Must) != 1 || !slices.Contains(sk.Must[0], shift(slide, 7)) || len(sk.Decided) != 0 {
		t.Errorf("UnusedSinks(slide) = %+v, %v; want the element store's '[' (%s), a must, nothing decided", sk, ok, shift(slide, 7))
	}
	sk, ok = x.UnusedSinks(wrap)
	if !ok || len(sk.Decided) != 1 || !slices.Contains(sk.Decided[0], wrapNext) || len(sk.Sites) == 0 || len(sk.Must) != 0 {
		t.Errorf("UnusedSinks(wrap) = %+v, %v; want the wrap's store and the index's accesses, %s among them", sk, ok, wrapNext)
	}
	sk, ok = x.UnusedSinks(kept)
	if !ok || len(sk.Must) != 1 {
		t.Errorf("UnusedSinks(kept) = %+v, %v; want the store into the local as a must", sk, ok)
	}
	for _, s := range []string{note, noted, across, divided} {
		if _, ok := x.UnusedSinks(s); ok {
			t.Errorf("UnusedSinks(%s) ok", s)
		}
	}
}

// TestJudgeLenAlike: goresilience's dequeuer tests isEmpty (len(jobs) <
// 1) and then dequeues under the lock again, the enqueuer appending
// between: check-then-act, unless the replay's trace shows the lengths
// the check read and the act finds, another goroutine's write, giving
// isEmpty one answer (Event.Len, lenAlike).
func TestJudgeLenAlike(t *testing.T) {
	x, at := index(t)
	deq := Frame{ID: 1, Site: at("func (q *JobQueue) dequeuer(", "dequeuer(")}
	empty := Frame{ID: 2, Site: at("func (q *JobQueue) isEmpty(", "isEmpty(")}
	enq := Frame{ID: 3, Site: at("func (q *JobQueue) enqueue(", "enqueue(")}
	check, head := at("return len(q.jobs) < 1 // jobqueue check", "jobs"), at("job := q.jobs[0]    // jobqueue head", "jobs")
	take, appendW := at("q.jobs = q.jobs[1:] // jobqueue take", "jobs"), at("q.jobs = append(q.jobs, j) // jobqueue append", "jobs")
	mk := func(la, lb int64, other bool, own int, write bool) []Event {
		a := Event{Thread: 1, Unit: 1, Read: true, Site: check, Step: 10, Frames: []Frame{deq, empty}}
		w := Event{Thread: 2, Unit: 2, Write: true, Site: appendW, Step: 20, Frames: []Frame{enq}}
		b := Event{Thread: 1, Unit: 1, Read: true, Site: head, Step: 30, Frames: []Frame{deq}}
		if write {
			b = Event{Thread: 1, Unit: 1, Write: true, Site: take, Step: 31, Frames: []Frame{deq}}
		}
		if la >= -1 {
			a.Len = &SliceLen{Len: la, Other: true, At: 100, OwnAt: -1}
			b.Len = &SliceLen{Len: lb, Other: other, Fresh: write && la != 7, At: 200, OwnAt: own}
		}
		return []Event{a, w, b}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"no lengths (main)", mk(-2, 0, false, -1, false), true},
		{"not empty, then longer", mk(1, 2, true, -1, false), false},
		{"not empty, then longer; the act a write", mk(1, 2, true, -1, true), false},
		{"empty, then not: the answer differs", mk(0, 1, true, -1, false), true},
		{"not empty, then emptied by another consumer", mk(1, 0, true, -1, false), true},
		{"a length unknown", mk(-1, 2, true, -1, false), true},
		{"the act reads the unit's own write", mk(1, 2, false, -1, false), true},
		{"the unit wrote between", mk(1, 2, true, 150, false), true},
		{"the act a write whose read came before the other's write", mk(7, 8, true, -1, true), true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
}

// TestJudgeLenAhead: goresilience's dequeuer tests isEmpty (len(jobs) <
// 1), the enqueuer counts its job and appends it, then the dequeuer
// takes a job and uncounts it, its dec reading the count (an asv on
// jobs and the count, b of another variable than the check's):
// check-then-act, unless the replay's trace shows the enqueuer's steps
// free to run before the check's critical section (Event.Ahead) and
// isEmpty answering on the length they leave as on the one it read
// (lenAhead).
func TestJudgeLenAhead(t *testing.T) {
	x, at := index(t)
	deq := Frame{ID: 1, Site: at("func (q *CountQueue) dequeuer(", "dequeuer(")}
	empty := Frame{ID: 2, Site: at("func (q *CountQueue) isEmpty(", "isEmpty(")}
	enq := Frame{ID: 3, Site: at("func (q *CountQueue) enqueue(", "enqueue(")}
	inc := Frame{ID: 4, Site: at("func (s *CountStats) inc(", "inc(")}
	dec := Frame{ID: 5, Site: at("func (s *CountStats) dec(", "dec(")}
	check, appendW := at("return len(q.jobs) < 1 // countqueue check", "jobs"), at("q.jobs = append(q.jobs, j) // countqueue append", "jobs")
	incW, decR := at("s.size++ // countqueue inc", "size"), at("if s.size <= 0 { // countqueue dec", "size")
	mk := func(la int64, ahead ...Ahead) []Event {
		a := Event{Thread: 1, Unit: 1, Var: 1, Read: true, Site: check, Step: 10, Frames: []Frame{deq, empty}}
		if la >= -1 {
			a.Len = &SliceLen{Len: la, Other: true, At: 100, OwnAt: -1}
		}
		a.Ahead = ahead
		return []Event{
			a,
			{Thread: 2, Unit: 2, Var: 2, Write: true, Site: incW, Step: 20, Frames: []Frame{enq, inc}},
			{Thread: 2, Unit: 2, Var: 1, Write: true, Site: appendW, Step: 25, Frames: []Frame{enq}},
			{Thread: 1, Unit: 1, Var: 2, Read: true, Site: decR, Step: 40, Frames: []Frame{deq, dec}},
		}
	}
	for _, tc := range []struct {
		name string
		evs  []Event
		want bool
	}{
		{"no trace (main)", mk(-2), true},
		{"not empty, then longer, the enqueuer's steps free to run first", mk(1, Ahead{To: 3, Len: 2}), false},
		{"the steps not free to run first (the take before the append)", mk(1), true},
		{"free to run first up to another event only", mk(1, Ahead{To: 2, Len: 2}), true},
		{"not empty, then emptied by another consumer", mk(1, Ahead{To: 3, Len: 0}), true},
		{"empty, then not", mk(0, Ahead{To: 3, Len: 1}), true},
		{"the check's length unknown", mk(-1, Ahead{To: 3, Len: 2}), true},
		{"the length left unknown", mk(1, Ahead{To: 3, Len: -1}), true},
	} {
		if v := x.Judge(tc.evs); v.Holds != tc.want {
			t.Errorf("%s: Judge = %v (%s), want %v", tc.name, v.Holds, v, tc.want)
		}
	}
}
