package depend

import (
	"go/token"
	"testing"
)

// TestCompareKnownBits: what compare knows of a comparison from the bits
// each side has fixed (answeredAlike's values: x|c has c's bits set, x&c
// the others clear).
func TestCompareKnownBits(t *testing.T) {
	u8 := func(known, ones uint64) abstract {
		return abstract{ok: true, integer: true, known: known, ones: ones, width: 8}
	}
	i8 := func(v int64) abstract {
		return abstract{ok: true, integer: true, known: 0xff, ones: uint64(v) & 0xff, width: 8, signed: true}
	}
	exact := func(v uint64) abstract { return u8(0xff, v) }
	orC := func(c uint64) abstract { return u8(c, c) }        // x|c
	andC := func(c uint64) abstract { return u8(^c&0xff, 0) } // x&c
	for _, tc := range []struct {
		name string
		op   token.Token
		x, y abstract
		want string // "true", "false" or "either"
	}{
		{"x|2 != 0", token.NEQ, orC(2), exact(0), "true"},
		{"x|2 == 1", token.EQL, orC(2), exact(1), "false"},
		{"x|2 == 3", token.EQL, orC(2), exact(3), "either"},
		{"x&3 == 4", token.EQL, andC(3), exact(4), "false"},
		{"x&3 == 0", token.EQL, andC(3), exact(0), "either"},
		{"x|8 >= 8", token.GEQ, orC(8), exact(8), "true"},
		{"x|8 < 8", token.LSS, orC(8), exact(8), "false"},
		{"x&7 < 8", token.LSS, andC(7), exact(8), "true"},
		{"x&7 > 6", token.GTR, andC(7), exact(6), "either"},
		{"1 == 1", token.EQL, exact(1), exact(1), "true"},
		{"-1 < 1 signed", token.LSS, i8(-1), i8(1), "true"},
		{"0xff > 1 unsigned", token.GTR, exact(0xff), exact(1), "true"},
	} {
		got := "either"
		if o := compare(tc.op, tc.x, tc.y); o.ok && len(o.set) == 1 {
			got = o.set[0].String()
		} else if !o.ok {
			got = "unknown"
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
