package check

import (
	"os"
	"path/filepath"
	"testing"
)

const selectSrc = `package p

import "time"

func loop(stop, done chan struct{}, res chan int, t *time.Timer) {
	for {
		select {
		case <-stop:
			return
		case v := <-res:
			_ = v
		}
		select {
		case res <- 1:
		case <-t.C:
		}
		select {
		case res <- 2:
		case <-time.After(time.Second):
		case <-done:
		}
	}
}
`

func TestSelectStopCases(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(selectSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	s := &selectAlts{dir: dir}
	for _, tc := range []struct {
		sel, stop string
		want      bool
	}{
		{"p.go:10:13", "", true},         // <-res beside <-stop
		{"p.go:10:13", "p.go:8:8", true}, // … at stop's line
		{"p.go:10:13", "p.go:14:8", false},
		{"p.go:8:8", "", true},           // <-stop beside <-res, a channel too
		{"p.go:14:8", "", false},         // beside a timer's C only
		{"p.go:18:8", "p.go:20:8", true}, // beside <-done
		{"p.go:18:8", "p.go:19:8", false},
		{"p.go:18:8", "q.go:20:8", false}, // another file
		{"p.go:5:1", "", false},           // no select case
	} {
		if got := s.stopCase(tc.sel, tc.stop); got != tc.want {
			t.Errorf("stopCase(%s, %q) = %v, want %v", tc.sel, tc.stop, got, tc.want)
		}
	}
	// The escape branches are as before: a timer's C, a call's result.
	for site, want := range map[string]bool{"p.go:10:13": false, "p.go:14:8": true, "p.go:18:8": true} {
		if got := s.at(site); got != want {
			t.Errorf("at(%s) = %v, want %v", site, got, want)
		}
	}
}
