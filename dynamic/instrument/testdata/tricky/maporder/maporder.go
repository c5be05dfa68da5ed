// Package maporder ranges over maps in the ways the instrumenter rewrites
// to a fixed order (rt.MapEntries): with key and value, key only, no
// variables, a labeled continue, deletion and insertion during the loop,
// NaN keys, pointer keys, a generic map type and a named one.
package maporder

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Keys returns m's keys in the order a range visits them.
func Keys(m map[string]int) string {
	var ks []string
	for k, v := range m {
		ks = append(ks, fmt.Sprintf("%s=%d", k, v))
	}
	return strings.Join(ks, " ")
}

// Deleting removes every key after the first visited: the loop visits
// one key, as Go's range does when the others are deleted first.
func Deleting(m map[int]bool) int {
	n := 0
	for k := range m {
		n++
		for o := range m {
			if o != k {
				delete(m, o)
			}
		}
	}
	return n
}

// Adding inserts during the loop: the new keys may or may not be
// visited; the old ones are, once each.
func Adding(m map[int]int) bool {
	seen := map[int]int{}
	for k := range m {
		seen[k]++
		m[k+1000] = 1
	}
	for k := range seen {
		if k < 1000 && seen[k] != 1 {
			return false
		}
	}
	return len(seen) >= 3
}

// NaNs sums the values of a map with NaN keys: each is visited with its
// value, though no lookup finds it.
func NaNs() float64 {
	m := map[float64]float64{math.NaN(): 1, math.NaN(): 2, 3: 4}
	s := 0.0
	for _, v := range m {
		s += v
	}
	return s
}

// Labeled counts with a labeled continue and break.
func Labeled(m map[string][]int) int {
	n := 0
outer:
	for _, vs := range m {
		for _, v := range vs {
			if v < 0 {
				continue outer
			}
			if v > 100 {
				break outer
			}
			n += v
		}
	}
	return n
}

type node struct{ name string }

// Pointers visits pointer keys.
func Pointers() string {
	m := map[*node]bool{}
	for _, s := range []string{"c", "a", "b"} {
		m[&node{s}] = true
	}
	var out []string
	for p := range m {
		out = append(out, p.name)
	}
	sort.Strings(out)
	return strings.Join(out, "")
}

// Set is a named map type.
type Set map[string]struct{}

// Sum adds the values of any map.
func Sum[M ~map[K]V, K comparable, V int | float64](m M) V {
	var s V
	for _, v := range m {
		s += v
	}
	return s
}

// Len counts a named map's keys with no iteration variables.
func Len(s Set) int {
	n := 0
	for range s {
		n++
	}
	return n
}

// Shadow redeclares the iteration variables in the body, as code before
// Go 1.22 did for closures.
func Shadow(m map[string]int) int {
	n := 0
	for k, v := range m {
		k := k
		v := v
		n += len(k) + v
	}
	return n
}
