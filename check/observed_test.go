package check

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/pecanvet/pecanvet/dynamic/trace"
	"github.com/pecanvet/pecanvet/pattern"
	"github.com/pecanvet/pecanvet/predict"
	"github.com/pecanvet/pecanvet/replay"
)

// TestAbandonedChannel checks which blocked operations count as abandoned: only
// one on a channel made in the function that started the goroutine,
// which that function uses only in selects that escape for good.
func TestAbandonedChannel(t *testing.T) {
	src := `package p

import (
	"context"
	"time"
)

func timeout(f func() int, d time.Duration) int {
	ch := make(chan int)
	go func() {
		ch <- f() // 11: abandoned after the timeout (line 16)
	}()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		return 0
	}
}

func cancelRecv(ctx context.Context) {
	ch := make(chan int)
	go func() {
		<-ch // 24: its sender gives up on ctx.Done() (line 28)
	}()
	select {
	case ch <- 1:
	case <-ctx.Done():
	}
}

var global = make(chan int)

func daemon() {
	go func() {
		global <- 1 // 36: a package-level channel: reachable
	}()
}

func passed(d time.Duration, keep func(chan int)) {
	ch := make(chan int)
	keep(ch) // stored elsewhere: reachable
	go func() {
		ch <- 1 // 44
	}()
	select {
	case <-ch:
	case <-time.After(d):
	}
}

func plain() {
	ch := make(chan int)
	go func() {
		ch <- 1 // 55: the receive is no select's case
	}()
	<-ch
}

func loops(d time.Duration) int {
	ch := make(chan int)
	go func() {
		ch <- 1 // 63: the loop comes back to the select
	}()
	for {
		select {
		case v := <-ch:
			return v
		case <-time.After(d):
		}
	}
}

func fresh(d time.Duration) {
	for i := 0; i < 3; i++ {
		ch := make(chan int)
		go func() {
			ch <- i // 78: a channel per round, abandoned at line 82
		}()
		select {
		case <-ch:
		case <-time.After(d):
		}
	}
}

func closed(d time.Duration) {
	ch := make(chan int)
	go func() {
		ch <- 1 // 90: closed by its function: not the idiom
	}()
	defer close(ch)
	select {
	case <-ch:
	case <-time.After(d):
	}
}
`
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for _, tc := range []struct {
		line int
		op   trace.Op
		want string // the escape's site; "" not abandoned
	}{
		{11, trace.Send, "p.go:16"},
		{11, trace.Recv, ""},
		{24, trace.Recv, "p.go:28"},
		{36, trace.Send, ""},
		{44, trace.Send, ""},
		{55, trace.Send, ""},
		{63, trace.Send, ""},
		{78, trace.Send, "p.go:82"},
		{90, trace.Send, ""},
	} {
		site := "p.go:" + strconv.Itoa(tc.line) + ":3"
		got, ok := s.abandoned(site, tc.op)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("abandoned(%s, %s) = %q, %v; want %q", site, tc.op, got, ok, tc.want)
		}
	}
}

// TestLeadObserved checks that a predicted leak stranding the operation
// an observed leak was blocked in is led by it, and no other, and that
// the observed leak counts it.
func TestLeadObserved(t *testing.T) {
	sel := &pattern.Pattern{Kind: "leak", Name: "select-branch", Leak: true}
	v := replay.Verdict{Verdict: replay.Reproduced, Passed: true, Leaked: []string{"g1.1.1 in chan send"}}
	fs := []Finding{
		{Package: "p", Anomaly: predict.Anomaly{Pattern: sel, Sites: []string{"x.go:17:7", "x.go:14:6"}}, Verdict: v},
		{Package: "p", Anomaly: predict.Anomaly{Pattern: sel, Sites: []string{"x.go:37:7", "x.go:34:6"}}, Verdict: v},
		{Package: "p", Anomaly: predict.Anomaly{Pattern: observedLeak, Sites: []string{"x.go:14:6"}}, Verdict: v},
	}
	leadObserved(fs)
	if fs[0].Lead != "x.go:14:6" || fs[1].Lead != "" || fs[2].Lead != "" {
		t.Errorf("leads %q, %q, %q; want x.go:14:6, none, none", fs[0].Lead, fs[1].Lead, fs[2].Lead)
	}
	if fs[2].Grouped != 1 || fs[0].Grouped != 0 || fs[1].Grouped != 0 {
		t.Errorf("grouped %d, %d, %d; want 0, 0, 1 (the observed leak leads one)", fs[0].Grouped, fs[1].Grouped, fs[2].Grouped)
	}
}
