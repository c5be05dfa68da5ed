package testbin

import (
	"slices"
	"testing"
)

func TestLinkFlags(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
	}{
		{nil, []string{"-ldflags=-s -w"}},
		{[]string{"-tags=x"}, []string{"-ldflags=-s -w", "-tags=x"}},
		// The user's -ldflags win: theirs are kept as they are.
		{[]string{"-ldflags=-X main.v=1"}, []string{"-ldflags=-X main.v=1"}},
		{[]string{"--ldflags", "-X main.v=1"}, []string{"--ldflags", "-X main.v=1"}},
	} {
		if got := linkFlags(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("linkFlags(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLeanFlags(t *testing.T) {
	const ld, gc = "-ldflags=-s -w", "-gcflags=-dwarf=false"
	for _, tc := range []struct {
		in, want []string
	}{
		{nil, []string{ld, gc}},
		{[]string{"-tags=x"}, []string{ld, gc, "-tags=x"}},
		// The user's -ldflags and -gcflags win: theirs are kept as they are.
		{[]string{"-ldflags=-X main.v=1"}, []string{gc, "-ldflags=-X main.v=1"}},
		{[]string{"-gcflags=all=-N -l"}, []string{ld, "-gcflags=all=-N -l"}},
		{[]string{"-gcflags", "-m", "-ldflags=-X main.v=1"}, []string{"-gcflags", "-m", "-ldflags=-X main.v=1"}},
	} {
		if got := leanFlags(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("leanFlags(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
