package generics

import (
	"sync"
	"testing"
)

func TestSum(t *testing.T) {
	if Sum([]int{1, 2, 3}) != 6 || Sum([]float64{0.5, 0.25}) != 0.75 {
		t.Error("sum")
	}
	if Max("a", "b") != "b" || Max(3, 2) != 3 {
		t.Error("max")
	}
}

func TestList(t *testing.T) {
	var l List[string]
	var wg sync.WaitGroup
	for _, s := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Push(s)
		}()
	}
	wg.Wait()
	n := 0
	for v := range l.All() {
		if v == "" {
			t.Error("empty")
		}
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 || l.Len() != 3 {
		t.Errorf("n=%d len=%d", n, l.Len())
	}
}

func TestCache(t *testing.T) {
	var c Cache[string, []int]
	c.Put("x", []int{1})
	if v, ok := c.Get("x"); !ok || v[0] != 1 {
		t.Error("cache")
	}
	if _, ok := c.Get("y"); ok {
		t.Error("y")
	}
}

type myInts []int

func TestCore(t *testing.T) {
	s := Fill(make(myInts, 3), 7)
	if s[2] != 7 {
		t.Error("fill")
	}
	if MapKeys(map[string]int{"a": 1, "b": 2}) != 2 {
		t.Error("keys")
	}
	out := Pipe(make(chan int, 1), 1, 2, 3)
	if len(out) != 3 || out[2] != 3 {
		t.Error("pipe", out)
	}
	p := Pair[int, string]{1, "x"}.Swap()
	if p.First != "x" {
		t.Error("swap")
	}
	sum := 0
	for i, sq := range Seq(4) {
		if i == 3 {
			break
		}
		sum += sq
	}
	if sum != 5 {
		t.Error("seq", sum)
	}
}

func TestInstantiate(t *testing.T) {
	if Instantiate() != 2 {
		t.Error("instantiate")
	}
}
