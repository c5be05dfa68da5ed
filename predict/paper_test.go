package predict

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict/ptg"
	"github.com/pecanvet/pecanvet/predict/schedule"
)

func parse(t *testing.T, src string) *trace.Trace {
	t.Helper()
	tr, err := trace.ReadTrace(strings.NewReader(src), t.Name(), trace.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func builtin(t *testing.T, names ...string) []*pattern.Pattern {
	var out []*pattern.Pattern
	for _, n := range names {
		ps, ok := pattern.Builtin(n)
		if !ok {
			t.Fatalf("no built-in set %q", n)
		}
		out = append(out, ps...)
	}
	return out
}

// numbers renders 0-based indices as 1-based event numbers.
func numbers(s []int32) string {
	var b []string
	for _, e := range s {
		b = append(b, fmt.Sprint(e+1))
	}
	return "<" + strings.Join(b, ",") + ">"
}

// fig1 is PECAN Figure 1 in Go terms. T1: line 1 writes w; line 2 reads x
// and z (`r := x + z`); line 3 reads y (`if y == 0 { panic("ERROR") }`).
// T2: line 5 writes x, line 6 writes z, line 7 writes y. Recorded order
// ⟨1,5,2,3,6,7⟩ (line 2 is two events).
const fig1 = `
T1 write w @fig1.go:1
T2 write x @fig1.go:5
T1 read x @fig1.go:2
T1 read z @fig1.go:2
T1 read y @fig1.go:3
T2 write z @fig1.go:6
T2 write y @fig1.go:7
`

func TestFigure1(t *testing.T) {
	res, err := Run(parse(t, fig1), builtin(t, "race"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range res.Anomalies {
		got[strings.Join(a.Sites, " ")] = numbers(a.Schedule.Events())
	}
	// The races are (2,5), (2,6) and (3,7), each scheduled in the order
	// opposite to the recorded one. (3,7): ⟨1,5,2,6,7,3⟩ in the paper's
	// line numbers.
	want := map[string]string{
		"fig1.go:2 fig1.go:5": "<1,3,2>",
		"fig1.go:6 fig1.go:2": "<1,2,3,6,4>",
		"fig1.go:7 fig1.go:3": "<1,2,3,4,6,7,5>",
	}
	if len(got) != len(want) {
		t.Errorf("got %d races, want %d: %v", len(got), len(want), got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("race %s: schedule %s, want %s (all: %v)", k, got[k], v, got)
		}
	}
}

// fig4: T1 v1 v2 v3, T2 v4 v5 v6; (v2, v5) race on x; v3 → v6 by a channel.
const fig4 = `
T1 write a @f.go:1
T1 write x @f.go:2
T1 send c cap=1 @f.go:3
T2 write b @f.go:4
T2 read x @f.go:5
T2 recv c cap=1 @f.go:6
`

func TestFigure4(t *testing.T) {
	gr := ptg.Build(parse(t, fig4))
	// Algorithm 3 for (v2, v5): v2 moves next to v5, v3 and v6 are cut.
	s, err := schedule.Generate(gr, []int32{1, 4}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := numbers(s.Events()); got != "<1,4,2,5>" {
		t.Errorf("schedule %s, want <1,4,2,5>", got)
	}
}

// fig5: the race (v3, v8) satisfies the mutation condition but is false
// because of the POR v2 → v5 (a send and its receive) inside T1's critical
// section on l, which T2 needs before v8.
const fig5 = `
T1 lock l @f.go:1
T1 send c cap=1 @f.go:2
T1 write x @f.go:3
T1 unlock l @f.go:4
T2 recv c cap=1 @f.go:5
T2 lock l @f.go:6
T2 unlock l @f.go:7
T2 read x @f.go:8
`

func TestFigure5(t *testing.T) {
	gr := ptg.Build(parse(t, fig5))
	for _, p := range [][]int32{{2, 7}, {7, 2}} {
		if s, err := schedule.Generate(gr, p, true); err == nil {
			t.Errorf("false race %v: got schedule %s, want none", p, numbers(s.Events()))
		}
	}
	// Without the POR (v2 and v5 plain accesses) the race is real and the
	// OML block ⟨v1,v2,v3⟩ moves after T2's critical section.
	noPOR := strings.NewReplacer("send c cap=1", "write c", "recv c cap=1", "read c").Replace(fig5)
	gr = ptg.Build(parse(t, noPOR))
	s, err := schedule.Generate(gr, []int32{2, 7}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := numbers(s.Events()); got != "<5,6,7,1,2,3,8>" {
		t.Errorf("schedule %s, want <5,6,7,1,2,3,8>", got)
	}
}

// fig3: an atomicity violation whose interleaving is not in the trace: T2's
// write of x (v8) can be placed between T1's read (v2) and write (v5) of x
// in one unit of work, at the gap before v5 where T1 holds no lock (v4 is
// the v_x of Algorithm 2), though not inside T1's critical section on l.
const fig3 = `
T1 region-begin Account.Deposit @a.go:10
T1 read x @a.go:11
T1 lock l @a.go:12
T1 unlock l @a.go:13
T1 write x @a.go:14
T1 region-end Account.Deposit @a.go:15
T2 lock l @a.go:20
T2 write x @a.go:21
T2 unlock l @a.go:22
`

func TestFigure3(t *testing.T) {
	res, err := Run(parse(t, fig3), builtin(t, "av"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anomalies) != 1 {
		t.Fatalf("got %d anomalies, want 1 (RWW): %+v", len(res.Anomalies), res.Anomalies)
	}
	a := res.Anomalies[0]
	if a.Pattern.Name != "RWW" || numbers(a.Events) != "<2,8,5>" {
		t.Errorf("got %s %s, want RWW <2,8,5>", a.Pattern.Name, numbers(a.Events))
	}
	if got := numbers(a.Schedule.Events()); got != "<1,2,3,4,7,8,5>" {
		t.Errorf("schedule %s", got)
	}
}
