package more

import (
	"sort"
	"strings"
	"testing"
)

func TestGoShapes(t *testing.T) {
	got := GoShapes()
	sort.Strings(got)
	if s := strings.Join(got, ","); s != "args3,indexed,lit3,method1 2,variadic1 3" {
		t.Error(s)
	}
}

func TestLabeled(t *testing.T) {
	if got := Labeled(make(chan int)); got != 9 {
		t.Error(got)
	}
}

func TestLockers(t *testing.T) {
	if Lockers() != 3 {
		t.Error("lockers")
	}
}

func TestConvert(t *testing.T) {
	if got := Convert(1, 2); got != "true true [0 2 0 1] 1 [1 true]" {
		t.Error(got)
	}
}

func TestDefers(t *testing.T) {
	if got := Defers(); got != "r21" {
		t.Error(got)
	}
}

func TestRedeclare(t *testing.T) {
	if n, err := Redeclare("12"); n != 12 || err != nil {
		t.Error(n, err)
	}
	if _, err := Redeclare("x"); err == nil || !strings.HasPrefix(err.Error(), "wrapped: ") {
		t.Error(err)
	}
}
