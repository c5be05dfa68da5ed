// Package closejoin joins its goroutines by closing a channel made for
// them (the body's first deferred call, so its last action) and receiving
// from it before touching what they wrote; merge works on a fresh copy
// (append to nil). Nothing is shared while both run: no candidate.
package closejoin

type Sum struct{ total int }

// Add sums xs, the first half in a helper goroutine.
func Add(s *Sum, xs []int) {
	half := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, x := range xs[:len(xs)/2] {
			half += x
		}
	}()
	rest := 0
	for _, x := range xs[len(xs)/2:] {
		rest += x
	}
	if len(xs) > 10 {
		<-done
		s.total = half + rest
		return
	}
	<-done
	s.total += half + rest
}

// merge merges a[:mid] and a[mid:] through a copy of the left half.
func merge(a []int, mid int) {
	left := append([]int(nil), a[:mid]...)
	i, k := 0, 0
	for ; i < len(left) && k < len(a); k++ {
		a[k] = left[i]
		i++
	}
}

// Twice merges in a goroutine while the caller merges another slice.
func Twice(a, b []int) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		merge(a, len(a)/2)
	}()
	<-done
	merge(b, len(b)/2)
}
