package check

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomSteps is a small random trace's steps: three goroutines (g1 forks
// g1.1 in some), two objects, reads, writes, atomics, locks, sleeps and a
// step missing its object.
func randomSteps(r *rand.Rand, n int) []string {
	gs := []string{"g1", "g2", "g1.1"}
	type opObj struct{ op, obj string }
	ops := []opObj{
		{"read", "x#1"}, {"read", "y#1"}, {"write", "x#1"}, {"write", "y#1"},
		{"atomic-load", "x#1"}, {"atomic-rmw", "y#1"}, {"lock", "m#1"},
		{"read", "x#1"}, {"read", "x#1"}, {"begin", ""}, {"sleep", ""}, {"write", ""},
	}
	occ := map[string]int{}
	var out []string
	forked := r.IntN(2) == 0
	for len(out) < n {
		g := gs[r.IntN(len(gs))]
		o := ops[r.IntN(len(ops))]
		if forked && g == "g1" && r.IntN(4) == 0 {
			o = opObj{"fork", "g1.1"}
		}
		if r.IntN(8) == 0 {
			o = opObj{"join", "g2"}
		}
		key := g + " " + o.op
		occ[key]++
		text := g + " " + o.op
		if o.obj != "" {
			text += " " + o.obj
		}
		out = append(out, fmt.Sprintf("%s @a.go:%d n=%d", text, len(o.op), occ[key]))
	}
	return out
}

// swapClass is the class of seq by brute force: every sequence reached
// by swapping adjacent independent steps.
func swapClass(seq []string) map[string]bool {
	seen := map[string]bool{strings.Join(seq, "|"): true}
	todo := [][]string{seq}
	for len(todo) > 0 {
		s := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for i := 0; i+1 < len(s); i++ {
			if stepsDependent(parseDepStep([]byte(s[i])), parseDepStep([]byte(s[i+1]))) {
				continue
			}
			t := append([]string(nil), s...)
			t[i], t[i+1] = t[i+1], t[i]
			if k := strings.Join(t, "|"); !seen[k] {
				seen[k] = true
				todo = append(todo, t)
			}
		}
	}
	return seen
}

func permutations(s []string, f func([]string)) {
	var rec func(k int)
	rec = func(k int) {
		if k == len(s) {
			f(s)
			return
		}
		for i := k; i < len(s); i++ {
			s[k], s[i] = s[i], s[k]
			rec(k + 1)
			s[k], s[i] = s[i], s[k]
		}
	}
	rec(0)
}

func seqSum(seq []string) [32]byte {
	f := newFoata()
	for _, t := range seq {
		f.add([]byte(t))
	}
	return f.sum(len(seq))
}

// TestClassSumBruteForce checks foata.sum against the classes that
// swapping adjacent independent steps gives, over every ordering of small
// random traces' steps, and that a prefix's sum is its own sequence's.
func TestClassSumBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(45, 30))
	classes, sizes := 0, 0
	for trial := 0; trial < 300; trial++ {
		base := randomSteps(r, 2+r.IntN(5))
		class := swapClass(base)
		want := seqSum(base)
		perm := append([]string(nil), base...)
		permutations(perm, func(p []string) {
			in := class[strings.Join(p, "|")]
			if got := seqSum(p) == want; got != in {
				t.Fatalf("base %q, ordering %q: equal sums %v, equivalent by swaps %v", base, p, got, in)
			}
		})
		classes++
		sizes += len(class)
		f := newFoata()
		for _, s := range base {
			f.add([]byte(s))
		}
		for k := 1; k <= len(base); k++ {
			if f.sum(k) != seqSum(base[:k]) {
				t.Fatalf("base %q: the sum of its first %d steps is not their sequence's", base, k)
			}
		}
	}
	if sizes == classes {
		t.Fatalf("every class had one ordering: the test's traces have no independent steps")
	}
}

// TestStepsDependent spells out the relation on the cases the fold leans
// on.
func TestStepsDependent(t *testing.T) {
	for _, c := range []struct {
		a, b string
		dep  bool
	}{
		{"g1 read x#1 @a.go:1 n=1", "g2 read x#1 @a.go:2 n=1", false},
		{"g1 read x#1 @a.go:1 n=1", "g2 write x#1 @a.go:2 n=1", true},
		{"g1 write x#1 @a.go:1 n=1", "g2 write y#1 @a.go:2 n=1", false},
		{"g1 atomic-load x#1 @a.go:1 n=1", "g2 read x#1 @a.go:2 n=1", false},
		{"g1 atomic-rmw x#1 @a.go:1 n=1", "g2 atomic-load x#1 @a.go:2 n=1", true},
		{"g1 lock m#1 @a.go:1 n=1", "g2 lock m#1 @a.go:2 n=1", true},
		{"g1 rlock m#1 @a.go:1 n=1", "g2 rlock m#1 @a.go:2 n=1", true},
		{"g1 read x#1 @a.go:1 n=1", "g1 read y#1 @a.go:2 n=1", true},
		{"g1 fork g1.1 @a.go:1 n=1", "g1.1 begin n=1", true},
		{"g1 fork g1.1 @a.go:1 n=1", "g2 begin n=1", false},
		{"g1 join g2 @a.go:1 n=1", "g2 end n=1", true},
		{"g1 sleep @a.go:1 n=1", "g2 read y#1 @a.go:2 n=1", true},
		{"g1 write @a.go:1 n=1", "g2 read y#1 @a.go:2 n=1", true},
		{"g1 send c#1 @a.go:1 n=1", "g2 recv c#1 @a.go:2 n=1", true},
		{"g1 send c#1 @a.go:1 n=1", "g2 recv d#1 @a.go:2 n=1", false},
	} {
		a, b := parseDepStep([]byte(c.a)), parseDepStep([]byte(c.b))
		if stepsDependent(a, b) != c.dep || stepsDependent(b, a) != c.dep {
			t.Errorf("%q, %q: dependent %v, want %v", c.a, c.b, stepsDependent(a, b), c.dep)
		}
	}
}
