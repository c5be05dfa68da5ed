package pattern

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// figure2 is Figure 2 of Vaziri, Tip and Dolby, "Associating Synchronization
// Constraints with Data in an Object-Oriented Language" (the atomic-sets
// paper), typed from the figure in its notation.
var figure2 = []string{
	1:  "R_u(l) W_u'(l) W_u(l)",
	2:  "R_u(l) W_u'(l) R_u(l)",
	3:  "W_u(l) R_u'(l) W_u(l)",
	4:  "W_u(l) W_u'(l) R_u(l)",
	5:  "W_u(l) W_u'(l) W_u(l)",
	6:  "W_u(l1) W_u'(l1) W_u'(l2) W_u(l2)",
	7:  "W_u(l1) W_u'(l2) W_u'(l1) W_u(l2)",
	8:  "W_u(l1) W_u'(l2) W_u(l2) W_u'(l1)",
	9:  "W_u(l1) R_u'(l1) R_u'(l2) W_u(l2)",
	10: "W_u(l1) R_u'(l2) R_u'(l1) W_u(l2)",
	11: "R_u(l1) W_u'(l1) W_u'(l2) R_u(l2)",
	12: "R_u(l1) W_u'(l2) W_u'(l1) R_u(l2)",
	13: "R_u(l1) W_u'(l2) R_u(l2) W_u'(l1)",
	14: "W_u(l1) R_u'(l2) W_u(l2) R_u'(l1)",
}

// fromFigure converts the figure's notation to pattern sequences: u is
// unit (and thread) 0, u' is 1; l and l1 are location 0, l2 is 1.
func fromFigure(t *testing.T, s string) (units, locs []int, at []Access) {
	t.Helper()
	for _, ev := range strings.Fields(s) {
		var a Access
		switch ev[0] {
		case 'R':
			a = R
		case 'W':
			a = W
		default:
			t.Fatalf("bad event %q", ev)
		}
		unit, loc, ok := strings.Cut(ev[2:], "(")
		if !ok || ev[1] != '_' || !strings.HasSuffix(loc, ")") {
			t.Fatalf("bad event %q", ev)
		}
		units = append(units, map[string]int{"u": 0, "u'": 1}[unit])
		locs = append(locs, map[string]int{"l)": 0, "l1)": 0, "l2)": 1}[loc])
		at = append(at, a)
	}
	return units, locs, at
}

func TestBuiltinASV(t *testing.T) {
	pats, ok := Builtin("asv")
	if !ok {
		t.Fatal(`no built-in set "asv"`)
	}
	if len(pats) != 14 {
		t.Fatalf("asv has %d patterns, want 14", len(pats))
	}
	for i, p := range pats {
		n := i + 1
		units, locs, at := fromFigure(t, figure2[n])
		if p.Kind != "asv" || p.Name != fmt.Sprintf("asv-%d", n) || p.Adjacent || !p.Atomic {
			t.Errorf("pattern %d: %s adjacent=%v atomic=%v, want asv/asv-%d atomic", n, p.ID(), p.Adjacent, p.Atomic, n)
		}
		if !slices.Equal(p.T, units) || !slices.Equal(p.AR, units) || !slices.Equal(p.SV, locs) || !slices.Equal(p.AT, at) {
			t.Errorf("%s = %v, want %s", p.Name, p, figure2[n])
		}
		wantLen, wantVars := 4, 2
		if n <= 5 {
			wantLen, wantVars = 3, 1
		}
		if p.Len() != wantLen || p.Vars() != wantVars || p.Threads() != 2 || p.Regions() != 2 {
			t.Errorf("%s: Len, Vars, Threads, Regions = %d, %d, %d, %d", p.Name, p.Len(), p.Vars(), p.Threads(), p.Regions())
		}
	}
	// The examples of the brief and of PECAN section 3, spelled out.
	want9 := MustParse("asv/asv-9 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w")[0]
	want8 := MustParse("asv/asv-8 atomic T=t1-t2-t1-t2 SV=s1-s2-s2-s1 AR=u1-u2-u1-u2 AT=w-w-w-w")[0]
	if !pats[8].Equal(want9) || !pats[7].Equal(want8) {
		t.Errorf("asv-9 = %v, asv-8 = %v", pats[8], pats[7])
	}
}

func TestBuiltinRaceAV(t *testing.T) {
	race, ok := Builtin("race")
	if !ok {
		t.Fatal(`no built-in set "race"`)
	}
	var got []string
	for _, p := range race {
		got = append(got, p.String())
	}
	want := []string{
		"race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w",
		"race/WR adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r",
		"race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w",
	}
	if !slices.Equal(got, want) {
		t.Errorf("race:\ngot  %q\nwant %q", got, want)
	}

	av, ok := Builtin("av")
	if !ok {
		t.Fatal(`no built-in set "av"`)
	}
	got = nil
	for _, p := range av {
		got = append(got, p.String())
	}
	want = nil
	for _, n := range []string{"RWR", "RWW", "WRW", "WWR", "WWW"} {
		at := strings.ToLower(n[:1] + "-" + n[1:2] + "-" + n[2:])
		want = append(want, "av/"+n+" atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT="+at)
	}
	want = append(want, "av/RRW atomic acting T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w")
	if !slices.Equal(got, want) {
		t.Errorf("av:\ngot  %q\nwant %q", got, want)
	}
}

func TestBuiltinAll(t *testing.T) {
	if got, want := BuiltinNames(), []string{"race", "av", "asv", "chan", "deadlock", "leak", "sync", "order", "all"}; !slices.Equal(got, want) {
		t.Errorf("BuiltinNames() = %q, want %q", got, want)
	}
	all, ok := Builtin("all")
	if !ok || len(all) != 3+6+14+3+7+2+1+1 {
		t.Fatalf("all has %d patterns, want 37", len(all))
	}
	var concat []*Pattern
	for _, n := range []string{"race", "av", "asv", "chan", "deadlock", "leak", "sync", "order"} {
		pats, _ := Builtin(n)
		concat = append(concat, pats...)
	}
	seen := map[string]bool{}
	for i, p := range all {
		if !p.Equal(concat[i]) {
			t.Errorf("all[%d] = %v, want %v", i, p, concat[i])
		}
		if seen[p.ID()] {
			t.Errorf("duplicate %s", p.ID())
		}
		seen[p.ID()] = true
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
		set := p.Kind
		if p.Chan {
			set = "chan"
		}
		if want := "built-in set " + set; p.Pos != want {
			t.Errorf("%s: Pos = %q, want %q", p.ID(), p.Pos, want)
		}
		if (p.Lock || p.Cond || p.Relock) != (p.Kind == "deadlock") {
			t.Errorf("%s: lock=%v", p.ID(), p.Lock)
		}
		if p.Leak != (p.Kind == "leak") {
			t.Errorf("%s: leak=%v", p.ID(), p.Leak)
		}
		if p.WG != (p.Kind == "sync") {
			t.Errorf("%s: wg=%v", p.ID(), p.WG)
		}
		if p.Stolen != (p.ID() == "leak/stolen-partner") {
			t.Errorf("%s: stolen=%v", p.ID(), p.Stolen)
		}
		if p.Order != (p.Kind == "order") {
			t.Errorf("%s: order=%v", p.ID(), p.Order)
		}
		if p.Lock || p.Leak || p.Cond || p.WG || p.Relock || p.Order {
			continue
		}
		if p.Atomic == (p.Kind == "race") || p.Adjacent != (p.Kind == "race") {
			t.Errorf("%s: adjacent=%v atomic=%v", p.ID(), p.Adjacent, p.Atomic)
		}
		if p.Len() < 2 || p.Len() > 4 {
			t.Errorf("%s has %d events", p.ID(), p.Len())
		}
	}
	if _, ok := Builtin("nope"); ok {
		t.Error(`Builtin("nope") found a set`)
	}
	// Builtin returns copies.
	all[0].AT[0] = W
	all[0].Name = "changed"
	again, _ := Builtin("race")
	if again[0].AT[0] != R || again[0].Name != "RW" {
		t.Error("modifying a Builtin result changed the built-in set")
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func ids(pats []*Pattern) []string {
	var s []string
	for _, p := range pats {
		s = append(s, p.ID())
	}
	return s
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	mine := writeFile(t, dir, "mine.txt", "# my patterns\nmy/RWWR T=a-b-b-a SV=x-x-x-x AR=p-q-q-p AT=r-w-w-r\n")
	same := writeFile(t, dir, "same.txt", "race/RW adjacent T=x-y SV=v-v AR=p-q AT=r-w # same as the built-in, other names\n")
	conflict := writeFile(t, dir, "conflict.txt", "\n  av/RWR T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r\n")
	bad := writeFile(t, dir, "bad.txt", "ok/x T=a-b SV=x-x AR=p-q AT=r-w\nbad/y T=a-b SV=x-x AR=p-q AT=r-z\n")
	empty := writeFile(t, dir, "empty.txt", "# nothing here\n")
	all, _ := Builtin("all")
	race, _ := Builtin("race")
	av, _ := Builtin("av")

	tests := []struct {
		spec    string
		want    []string // IDs
		wantErr string
	}{
		{spec: "", want: ids(all)},
		{spec: "  ", want: ids(all)},
		{spec: "all", want: ids(all)},
		{spec: "race", want: ids(race)},
		{spec: "race,av", want: append(ids(race), ids(av)...)},
		{spec: " av , race ", want: append(ids(av), ids(race)...)},
		{spec: "race,all,race", want: append(ids(race), append(ids(av), ids(all)[len(race)+len(av):]...)...)},
		{spec: "race," + mine, want: append(ids(race), "my/RWWR")},
		{spec: mine + ",race," + same, want: append([]string{"my/RWWR"}, ids(race)...)},
		{spec: "race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w; race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w", want: []string{"race/RW", "race/WW"}},
		{spec: "a/b T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w, c/d T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w",
			wantErr: `-patterns:1:37: unexpected ","`},
		{spec: "x/y adjacnet T=t1-t2", wantErr: `-patterns:1:5: unknown option "adjacnet" (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)`},
		{spec: "# only = a comment", wantErr: `-patterns: no patterns in "# only = a comment"`},
		{spec: "av," + conflict, wantErr: conflict + ":2:3: pattern av/RWR differs from the one defined at built-in set av"},
		{spec: conflict + ",av", wantErr: "built-in set av: pattern av/RWR differs from the one defined at " + conflict + ":2:3"},
		{spec: "race," + bad, wantErr: bad + ":2:32: unknown access type \"z\" (want r or w)"},
		{spec: empty, wantErr: "-patterns: " + empty + " defines no patterns"},
		{spec: "races", wantErr: `-patterns: "races" is neither a built-in pattern set (race, av, asv, chan, deadlock, leak, sync, order, all) nor a pattern file`},
		{spec: dir, wantErr: fmt.Sprintf("-patterns: %q is neither a built-in pattern set (race, av, asv, chan, deadlock, leak, sync, order, all) nor a pattern file", dir)},
		{spec: "race,,av", wantErr: `-patterns: empty item in "race,,av"`},
		{spec: "race,", wantErr: `-patterns: empty item in "race,"`},
	}
	for _, tt := range tests {
		pats, err := Resolve(tt.spec)
		if tt.wantErr != "" {
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Resolve(%q) error:\ngot  %v\nwant %s", tt.spec, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q): %v", tt.spec, err)
			continue
		}
		if got := ids(pats); !slices.Equal(got, tt.want) {
			t.Errorf("Resolve(%q):\ngot  %q\nwant %q", tt.spec, got, tt.want)
		}
	}
}

func TestResolveFileNamedLikeBuiltin(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "race", "my/x T=a-b SV=x-x AR=p-q AT=w-w\n")
	t.Chdir(dir)
	pats, err := Resolve("race")
	if err != nil || len(pats) != 3 || pats[0].Kind != "race" {
		t.Errorf(`Resolve("race") = %v, %v; want the built-in set`, pats, err)
	}
	pats, err = Resolve("./race")
	if err != nil || len(pats) != 1 || pats[0].ID() != "my/x" || pats[0].Pos != "./race:1:1" {
		t.Errorf(`Resolve("./race") = %v, %v; want the file`, pats, err)
	}
}

func TestBuiltinChan(t *testing.T) {
	pats, ok := Builtin("chan")
	if !ok || len(pats) != 3 {
		t.Fatalf("chan set: %d patterns", len(pats))
	}
	for _, p := range pats {
		if !p.Chan || !p.Adjacent || p.Kind != "race" || p.Len() != 2 {
			t.Errorf("%s: %s", p.ID(), p)
		}
		q, err := Parse(p.String(), "again")
		if err != nil || !q[0].Equal(p) {
			t.Errorf("%s does not round-trip: %v", p, err)
		}
	}
}

// TestOnceRunShape: deadlock/once-run is the one built-in lock pattern of
// its shape, told apart from the inversion and the recursive read lock.
func TestOnceRunShape(t *testing.T) {
	all, _ := Builtin("all")
	var once []string
	for _, p := range all {
		if p.OnceRun() {
			once = append(once, p.ID())
			if p.RWWriter() || p.Relock {
				t.Errorf("%s: also rlock-writer or relock", p.ID())
			}
		}
	}
	if !slices.Equal(once, []string{"deadlock/once-run"}) {
		t.Errorf("once-run patterns %q", once)
	}
	if _, err := Parse("deadlock/x lock T=t1-t2-t1 SV=s1-s2-s1 AR=u1-u2-u1 AT=w-w-w", "t"); err == nil {
		t.Error("a lock pattern of another shape was accepted")
	}
}
