package check

import (
	"context"
	"testing"
)

// TestForget: RunOnce answers a second call for the same directory from
// the first one's result, and runs the check again after Forget (a
// harness's rerun must not replay the first run's outcome).
func TestForget(t *testing.T) {
	calls := 0
	old := runOnce
	runOnce = func(ctx context.Context, opt Options) (*Report, error) {
		calls++
		return &Report{Tests: calls}, nil
	}
	defer func() { runOnce = old }()
	opt := Options{Dir: t.TempDir(), Patterns: []string{"."}}
	defer Forget(opt.Dir, opt.Patterns)
	r1, _ := RunOnce(context.Background(), opt)
	r2, _ := RunOnce(context.Background(), opt)
	if calls != 1 || r1 != r2 {
		t.Fatalf("two calls: %d checks, reports %p and %p; want one check, one report", calls, r1, r2)
	}
	Forget(opt.Dir, opt.Patterns)
	r3, _ := RunOnce(context.Background(), opt)
	if calls != 2 || r3 == r1 || r3.Tests != 2 {
		t.Fatalf("after Forget: %d checks, report %+v; want a second check", calls, r3)
	}
	other := Options{Dir: opt.Dir, Patterns: []string{"./..."}}
	defer Forget(other.Dir, other.Patterns)
	if RunOnce(context.Background(), other); calls != 3 {
		t.Fatalf("other patterns: %d checks, want 3", calls)
	}
}
