package pattern

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that its errors carry positions
// inside the input, and that every pattern it accepts is valid and prints
// (String) to a text that parses back to the same pattern, names included.
func FuzzParse(f *testing.F) {
	for _, b := range builtinSrc {
		f.Add(b.src)
	}
	for _, s := range []string{
		"race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w",
		"asv/asv-9 atomic E = e1 - e2 - e3 - e4 T = t1 - t2 - t2 - t1 SV = s1 - s1 - s2 - s2 AR = u1 - u2 - u2 - u1 AT = w - r - r - w",
		"mine/x.y_z-1 ADJACENT t=b-a-b sv=q-p-q ar=v-w-v at=W-R-W e=first-second-third # c\n;k/n T=a-b SV=x-x AR=p-q AT=r-w",
		"x/y adjacnet",
		"a/b T=t1 -\n\r\n",
		"a/b T=t1-t2 SV=s1-s1 AR=u1-u1 AT=r-w",
		"a/b\xff é",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		pats, err := Parse(src, "fuzz")
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v (%T) is not a non-empty ErrorList", err, err)
			}
			lines := strings.Count(src, "\n") + 1
			for _, e := range list {
				if e.Name != "fuzz" || e.Line < 1 || e.Line > lines || e.Col < 1 || e.Col > len(src)+1 || e.Msg == "" {
					t.Fatalf("bad error position %+v (%d lines, %d bytes)", e, lines, len(src))
				}
			}
			_ = err.Error()
			return
		}
		var texts []string
		for _, p := range pats {
			if err := p.Validate(); err != nil {
				t.Fatalf("Parse accepted an invalid pattern: %v", err)
			}
			_ = p.Describe()
			_ = Key(p, make([]string, p.Len()))
			text := p.String()
			texts = append(texts, text)
			again, err := Parse(text, "again")
			if err != nil {
				t.Fatalf("String() = %q does not parse: %v", text, err)
			}
			if len(again) != 1 {
				t.Fatalf("String() = %q parses to %d patterns", text, len(again))
			}
			q := again[0]
			if q.Pos != "again:1:1" {
				t.Fatalf("Pos = %q", q.Pos)
			}
			q.Pos = p.Pos
			if !reflect.DeepEqual(p, q) || !p.Equal(q) {
				t.Fatalf("round trip of %q:\ngot  %#v\nwant %#v", text, q, p)
			}
			if q.String() != text {
				t.Fatalf("String is not canonical: %q then %q", text, q.String())
			}
		}
		// The patterns of one source have distinct kind/name pairs.
		all, err := Parse(strings.Join(texts, "\n"), "joined")
		if err != nil || len(all) != len(pats) {
			t.Fatalf("joined canonical texts: %d patterns, %v", len(all), err)
		}
	})
}
