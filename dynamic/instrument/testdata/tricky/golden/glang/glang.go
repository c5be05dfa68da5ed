// Package glang exercises the constructs whose memory accesses no
// expression shows: range element reads, named results, copy, append and
// len of a map.
package glang

// Sum ranges over the elements of a slice a goroutine filled.
func Sum(xs []int) int {
	done := make(chan bool)
	go func() {
		xs[1] = 5
		done <- true
	}()
	<-done
	t := 0
	for _, v := range xs {
		t += v
	}
	return t
}

// Result has a named result a goroutine writes and the return reads.
func Result() (n int) {
	done := make(chan bool)
	go func() {
		n = 7
		done <- true
	}()
	<-done
	return
}

// Explicit writes its named result with a return, and a deferred call
// changes it.
func Explicit() (n int) {
	defer func() { n++ }()
	return 41
}

// Copy copies between slices a goroutine shares.
func Copy(dst, src []int) int {
	done := make(chan int)
	go func() {
		done <- copy(dst, src)
	}()
	return <-done
}

// Append appends in place (the capacity suffices) and then past the
// capacity, into other variables (s = append(s, ...) records only s).
func Append(s []int) []int {
	t := append(s, 1)
	more := []int{2, 3}
	return append(t, more...)
}

// Len takes the length of a map a goroutine wrote.
func Len(m map[string]int) int {
	done := make(chan bool)
	go func() {
		m["a"] = 1
		done <- true
	}()
	<-done
	return len(m)
}

// Pair is copied as a whole.
type Pair struct{ A, B int }

// Whole copies a struct a goroutine wrote a field of: the copy reads both
// fields.
func Whole(p *Pair) Pair {
	done := make(chan bool)
	go func() {
		p.B = 2
		done <- true
	}()
	<-done
	return *p
}
