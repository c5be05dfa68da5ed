package pattern

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	rw := &Pattern{
		Kind: "race", Name: "RW", Adjacent: true,
		E: []string{"e1", "e2"}, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []Access{R, W},
		TNames: []string{"t1", "t2"}, SVNames: []string{"s1"}, ARNames: []string{"u1", "u2"},
	}
	asv9 := &Pattern{
		Kind: "asv", Name: "asv-9", Atomic: true,
		E: []string{"e1", "e2", "e3", "e4"}, T: []int{0, 1, 1, 0}, SV: []int{0, 0, 1, 1}, AR: []int{0, 1, 1, 0}, AT: []Access{W, R, R, W},
		TNames: []string{"t1", "t2"}, SVNames: []string{"s1", "s2"}, ARNames: []string{"u1", "u2"},
	}
	rrw := &Pattern{
		Kind: "av", Name: "RRW", Atomic: true, Acting: true,
		E: []string{"e1", "e2", "e3"}, T: []int{0, 1, 0}, SV: []int{0, 0, 0}, AR: []int{0, 1, 0}, AT: []Access{R, R, W},
		TNames: []string{"t1", "t2"}, SVNames: []string{"s1"}, ARNames: []string{"u1", "u2"},
	}
	tests := []struct {
		name string
		src  string
		want []*Pattern
	}{
		{"acting", "av/RRW Acting atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-r-w", []*Pattern{rrw}},
		{"compact", "race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w", []*Pattern{rw}},
		{"any order", "race/RW AT=r-w AR=u1-u2 adjacent SV=s1-s1 T=t1-t2", []*Pattern{rw}},
		{"spaces", "race/RW  adjacent\tT = t1 - t2 SV= s1 -s1 AR =u1- u2 AT = r - w  ", []*Pattern{rw}},
		{"case-insensitive", "race/RW ADJACENT t=t1-t2 sv=s1-s1 Ar=u1-u2 at=R-W", []*Pattern{rw}},
		{"default E given", "race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w E=e1-e2", []*Pattern{rw}},
		{"comments and blank lines", "# races\n\n  race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w # the read-write race\n# end\n", []*Pattern{rw}},
		{"CRLF", "\r\nrace/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w\r\n", []*Pattern{rw}},
		{"paper form", "asv/asv-9 atomic E = e1 - e2 - e3 - e4 T = t1 - t2 - t2 - t1 SV = s1 - s1 - s2 - s2 AR = u1 - u2 - u2 - u1 AT = w - r - r - w",
			[]*Pattern{asv9}},
		{"semicolons", ";race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w;; asv/asv-9 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w;",
			[]*Pattern{rw, asv9}},
		{"empty", "", nil},
		{"only comments", "# nothing\n   \n;;\n", nil},
		{"names are normalized", "mine/x.y_z-1 T=b-a-b SV=q-p-q AR=v-w-v AT=w-r-w E=first-second-third", []*Pattern{{
			Kind: "mine", Name: "x.y_z-1",
			E: []string{"first", "second", "third"}, T: []int{0, 1, 0}, SV: []int{0, 1, 0}, AR: []int{0, 1, 0}, AT: []Access{W, R, W},
			TNames: []string{"b", "a"}, SVNames: []string{"q", "p"}, ARNames: []string{"v", "w"},
		}}},
		{"two regions of one thread", "mine/split T=t1-t2-t1 SV=s-s-s AR=u1-u2-u3 AT=r-w-r", []*Pattern{{
			Kind: "mine", Name: "split",
			E: []string{"e1", "e2", "e3"}, T: []int{0, 1, 0}, SV: []int{0, 0, 0}, AR: []int{0, 1, 2}, AT: []Access{R, W, R},
			TNames: []string{"t1", "t2"}, SVNames: []string{"s"}, ARNames: []string{"u1", "u2", "u3"},
		}}},
		{"head then comment", "k/n T=a-b SV=x-x AR=p-q AT=w-w#c", []*Pattern{{
			Kind: "k", Name: "n",
			E: []string{"e1", "e2"}, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []Access{W, W},
			TNames: []string{"a", "b"}, SVNames: []string{"x"}, ARNames: []string{"p", "q"},
		}}},
		{"same names in different sequences", "k/n T=x-y SV=x-x AR=x-y AT=r-w", []*Pattern{{
			Kind: "k", Name: "n",
			E: []string{"e1", "e2"}, T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []Access{R, W},
			TNames: []string{"x", "y"}, SVNames: []string{"x"}, ARNames: []string{"x", "y"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.src, "test")
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.src, err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Parse(%q): got %d patterns, want %d", tt.src, len(got), len(tt.want))
			}
			for i, p := range got {
				if !strings.HasPrefix(p.Pos, "test:") {
					t.Errorf("pattern %d: Pos = %q, want test:LINE:COL", i, p.Pos)
				}
				p.Pos = ""
				if !reflect.DeepEqual(p, tt.want[i]) {
					t.Errorf("pattern %d:\ngot  %#v\nwant %#v", i, p, tt.want[i])
				}
				if err := p.Validate(); err != nil {
					t.Errorf("pattern %d: Validate: %v", i, err)
				}
			}
		})
	}
}

func TestParsePos(t *testing.T) {
	pats, err := Parse("# header\n  a/b T=t1-t2 SV=s-s AR=u-v AT=r-w; c/d T=t1-t2 SV=s-s AR=u-v AT=w-w", "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	if pats[0].Pos != "f.txt:2:3" || pats[1].Pos != "f.txt:2:37" {
		t.Errorf("Pos = %q, %q; want f.txt:2:3, f.txt:2:37", pats[0].Pos, pats[1].Pos)
	}
}

func TestParseErrors(t *testing.T) {
	const ok = " T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w"
	tests := []struct {
		src  string
		want string // the whole error text
	}{
		// Heads.
		{"T=t1-t2", `p:1:1: expected kind/name at start of pattern, found "T"`},
		{"race" + ok, `p:1:1: expected kind/name at start of pattern, found "race"`},
		{"race/" + ok, `p:1:1: expected kind/name at start of pattern, found "race/"`},
		{"/RW" + ok, `p:1:1: expected kind/name at start of pattern, found "/RW"`},
		{"a/b/c" + ok, `p:1:1: expected kind/name at start of pattern, found "a/b/c"`},
		{"-a/b" + ok, `p:1:1: expected kind/name at start of pattern, found "-a/b"`},
		{"a/.b" + ok, `p:1:1: expected kind/name at start of pattern, found "a/.b"`},
		{"= x", `p:1:1: expected kind/name at start of pattern, found "="`},
		{"a/b!" + ok, `p:1:4: unexpected "!" in kind/name`},
		{"a/b\xff", `p:1:4: unexpected byte 0xff in kind/name`},
		{"  a/bé", `p:1:6: unexpected "é" in kind/name`},
		// Options and fields.
		{"x/y adjacnet", `p:1:5: unknown option "adjacnet" (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)`},
		{"a/b adjacent adjacent" + ok, `p:1:14: duplicate option adjacent`},
		{"a/b atomic Atomic" + ok, `p:1:12: duplicate option atomic`},
		{"a/b T=t1 t2", `p:1:10: unknown option "t2" (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)`},
		{"a/b X=1", `p:1:5: unknown field "X" (want T, SV, AR, AT or E)`},
		{"a/b T t1-t2", `p:1:7: expected "=" after T, found "t"`},
		{"a/b AT", `p:1:7: expected "=" after AT, found end of input`},
		{"a/b T=", `p:1:7: expected element of T, found end of input`},
		{"a/b T=\n", `p:1:7: expected element of T, found end of line`},
		{"a/b T=;", `p:1:7: expected element of T, found ";"`},
		{"a/b T=1-2", `p:1:7: expected element of T, found "1"`},
		{"a/b T=t1-", `p:1:10: expected element of T after "-", found end of input`},
		{"a/b T=t1 - # c", `p:1:12: expected element of T after "-", found "#"`},
		{"a/b T=t1--t2", `p:1:10: expected element of T after "-", found "-"`},
		{"a/b T=t1-t2 = x", `p:1:13: unexpected "="`},
		{"a/b T=t1.t2", `p:1:9: unexpected "."`},
		{"a/b" + ok + " T=t1-t2", `p:1:38: duplicate field T (first at 1:5)`},
		{"a/b" + ok + " at=r-w", `p:1:38: duplicate field AT (first at 1:31)`},
		{"a/b T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-x", `p:1:36: unknown access type "x" (want r or w)`},
		{"a/b T=t1-t2 SV=s1-s1 AR=u1-u2 AT=read-w", `p:1:34: unknown access type "read" (want r or w)`},
		{"a/b" + ok + " E=e1-e1", `p:1:43: duplicate event name "e1" in E (first at 1:40)`},
		// Validation.
		{"a/b", `p:1:1: missing fields T, SV, AR, AT`},
		{"a/b T=t1-t2 SV=s1-s1 AR=u1-u2", `p:1:1: missing field AT`},
		{"a/b E=e1-e2 AR=u1-u2 AT=r-w", `p:1:1: missing fields T, SV`},
		{"patterns/x T=t1-t2-t1 SV=s1-s1-s1 AT=r-w AR=u1-u2-u1", `p:1:35: AT has 2 elements but T has 3`},
		{"a/b AT=r-w T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1", `p:1:12: T has 3 elements but AT has 2`},
		{"a/b E=e1 T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w", `p:1:10: T has 2 elements but E has 1`},
		{"a/b" + ok + " E=a-b-c", `p:1:38: E has 3 elements but T has 2`},
		{"a/b T=t1 SV=s1 AR=u1 AT=r", `p:1:1: a pattern needs at least 2 events, this one has 1`},
		{"a/b SV=s1-s1 T=t1-t1 AR=u1-u2 AT=r-w", `p:1:14: T names only one thread, t1; a pattern needs at least 2 threads`},
		{"a/b T=t1-t2 SV=s1-s1 AR=u1-u1 AT=r-w", `p:1:28: region u1 is used by threads t1 and t2; a region belongs to one thread`},
		{"a/b T=t1-t2-t1-t3 SV=s-s-s-s AR=u1-u2-u1-u2 AT=r-w-r-w", `p:1:42: region u2 is used by threads t2 and t3; a region belongs to one thread`},
		{"race/RW adjacent atomic" + ok, `p:1:18: races never involve sync/atomic accesses`},
		{"a/b acting acting" + ok, `p:1:12: duplicate option acting`},
		{"a/b acting" + ok, `p:1:5: option acting needs the remote events to be reads, event 2 is a write of thread t2`},
		{"a/b adjacent acting T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-r", `p:1:14: option acting does not go with adjacent or chan`},
		{"a/b" + ok + "\n\n a/b" + ok, `p:3:2: duplicate pattern a/b (first at 1:1)`},
		// Several errors: one per pattern.
		{"a/b T=t1\n\nc/d" + ok + "; e/f adjacnet" + ok,
			"p:1:1: missing fields SV, AR, AT\np:3:43: unknown option \"adjacnet\" (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)"},
		{"a/b T=t1 # x; y\nc/d adjacnet # ; z", "p:1:1: missing fields SV, AR, AT\np:2:5: unknown option \"adjacnet\" (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)"},
	}
	for _, tt := range tests {
		pats, err := Parse(tt.src, "p")
		if err == nil {
			t.Errorf("Parse(%q) = %v, want error %q", tt.src, pats, tt.want)
			continue
		}
		if pats != nil {
			t.Errorf("Parse(%q) returned patterns and an error", tt.src)
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q):\ngot  %s\nwant %s", tt.src, err, tt.want)
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Errorf("Parse(%q): error %T is not a non-empty ErrorList", tt.src, err)
		}
	}
}

func TestErrorListTruncates(t *testing.T) {
	src := strings.Repeat("x/y bad\n", 12)
	_, err := Parse(src, "f")
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 12 {
		t.Fatalf("got %v, want 12 errors", err)
	}
	if list[11].Line != 12 || list[11].Col != 5 || list[11].Name != "f" {
		t.Errorf("last error = %+v, want f:12:5", list[11])
	}
	msg := err.Error()
	if n := strings.Count(msg, "\n"); n != 10 || !strings.HasSuffix(msg, "(and 2 more errors)") {
		t.Errorf("error text:\n%s", msg)
	}
	if got := (&Error{Line: 1, Col: 2, Msg: "m"}).Error(); got != "1:2: m" {
		t.Errorf("nameless Error = %q", got)
	}
}

func TestStringRoundTrip(t *testing.T) {
	srcs := []string{
		"race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w",
		"asv/asv-9 atomic T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w",
		"mine/x adjacent atomic T=b-a-b SV=q-p-q AR=v-w-v AT=w-r-w E=first-second-third",
		"mine/y T=t2-t1 SV=x-y AR=A-B AT=w-w E=e2-e1",
	}
	for _, src := range srcs {
		pats, err := Parse(src, "f")
		if err != nil {
			t.Fatal(err)
		}
		if got := pats[0].String(); got != src {
			t.Errorf("String:\ngot  %s\nwant %s", got, src)
		}
	}
	// Non-canonical spellings print canonically.
	pats := MustParse("K/n AT = R - W  adjacent e = e1 - e2 t=a-b sv=x-x ar=p-q")
	if got, want := pats[0].String(), "K/n adjacent T=a-b SV=x-x AR=p-q AT=r-w"; got != want {
		t.Errorf("String:\ngot  %s\nwant %s", got, want)
	}
	// A pattern built in memory without names.
	p := &Pattern{Kind: "k", Name: "n", T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []Access{R, W}}
	if got, want := p.String(), "k/n T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w"; got != want {
		t.Errorf("String:\ngot  %s\nwant %s", got, want)
	}
	if err := p.Validate(); err != nil {
		t.Error(err)
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct{ src, want string }{
		{"race/RW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w", "read–write race"},
		{"race/WW adjacent T=t1-t2 SV=s1-s1 AR=u1-u2 AT=w-w", "write–write race"},
		{"av/RWR atomic T=t1-t2-t1 SV=s1-s1-s1 AR=u1-u2-u1 AT=r-w-r",
			"read–write–read atomicity violation: R(u1,s1) W(u2,s1) R(u1,s1)"},
		{"asv/asv-9 T=t1-t2-t2-t1 SV=s1-s1-s2-s2 AR=u1-u2-u2-u1 AT=w-r-r-w",
			"write–read–read–write atomic-set serializability violation: W(u1,s1) R(u2,s1) R(u2,s2) W(u1,s2)"},
		{"mine/split T=a-b-a SV=x-x-x AR=p-q-r AT=r-w-r",
			`read–write–read "mine" pattern: R(a:p,x) W(b:q,x) R(a:r,x)`},
		{"race/two-vars adjacent T=a-b SV=x-y AR=p-q AT=w-w",
			"write–write race: W(p,x) W(q,y)"},
	}
	for _, tt := range tests {
		if got := MustParse(tt.src)[0].Describe(); got != tt.want {
			t.Errorf("Describe(%s):\ngot  %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestCounts(t *testing.T) {
	p := MustParse("k/n T=a-b-a-c SV=x-y-x-x AR=p-q-r-s AT=r-w-r-w")[0]
	if p.Len() != 4 || p.Threads() != 3 || p.Vars() != 2 || p.Regions() != 4 {
		t.Errorf("Len, Threads, Vars, Regions = %d, %d, %d, %d; want 4, 3, 2, 4", p.Len(), p.Threads(), p.Vars(), p.Regions())
	}
	if p.ID() != "k/n" || p.ThreadName(3) != "c" || p.VarName(1) != "y" || p.RegionName(2) != "r" || p.EventName(0) != "e1" {
		t.Errorf("names: %s %s %s %s %s", p.ID(), p.ThreadName(3), p.VarName(1), p.RegionName(2), p.EventName(0))
	}
	if R.String() != "r" || W.String() != "w" || Access(7).String() != "Access(7)" {
		t.Errorf("Access strings: %v %v %v", R, W, Access(7))
	}
}

func TestEqualClone(t *testing.T) {
	a := MustParse("k/n T=a-b SV=x-x AR=p-q AT=r-w")[0]
	b := MustParse("# other spelling\nk/n T=c-d SV=z-z AR=r-s AT=r-w E=one-two")[0]
	if !a.Equal(b) {
		t.Errorf("%v and %v should be Equal", a, b)
	}
	c := a.Clone()
	c.AT[0] = W
	c.TNames[0] = "zz"
	if a.AT[0] != R || a.TNames[0] != "a" {
		t.Error("Clone shares slices with the original")
	}
	if a.Equal(c) {
		t.Errorf("%v and %v should differ", a, c)
	}
	for _, src := range []string{
		"k/m T=a-b SV=x-x AR=p-q AT=r-w",
		"j/n T=a-b SV=x-x AR=p-q AT=r-w",
		"k/n adjacent T=a-b SV=x-x AR=p-q AT=r-w",
		"k/n atomic T=a-b SV=x-x AR=p-q AT=r-w",
		"k/n T=a-b SV=x-y AR=p-q AT=r-w",
		"k/n T=a-b-a SV=x-x-x AR=p-q-p AT=r-w-r",
		"k/n T=a-b-a SV=x-x-x AR=p-q-r AT=r-w-r",
	} {
		if d := MustParse(src)[0]; a.Equal(d) || d.Equal(a) {
			t.Errorf("%v and %v should differ", a, d)
		}
	}
}

func TestValidate(t *testing.T) {
	good := func() *Pattern {
		return &Pattern{Kind: "k", Name: "n", T: []int{0, 1}, SV: []int{0, 0}, AR: []int{0, 1}, AT: []Access{R, W}}
	}
	tests := []struct {
		mod  func(p *Pattern)
		want string
	}{
		{func(p *Pattern) { p.T = p.T[:1] }, "pattern k/n: T has 1 element but AT has 2"},
		{func(p *Pattern) { p.E = []string{"a"} }, "pattern k/n: E has 1 element but AT has 2"},
		{func(p *Pattern) { p.T, p.SV, p.AR, p.AT = p.T[:1], p.SV[:1], p.AR[:1], p.AT[:1] }, "pattern k/n: a pattern needs at least 2 events, this one has 1"},
		{func(p *Pattern) { p.SV = []int{1, 0} }, "pattern k/n: SV is not normalized: element 1 is 1, want at most 0"},
		{func(p *Pattern) { p.AR = []int{0, -1} }, "pattern k/n: AR is not normalized: element 2 is -1, want at most 1"},
		{func(p *Pattern) { p.TNames = []string{"a"} }, "pattern k/n: T has 2 variables but 1 names"},
		{func(p *Pattern) { p.TNames = []string{"a", "a"} }, `pattern k/n: T names variables 1 and 2 both "a"`},
		{func(p *Pattern) { p.T = []int{0, 0} }, "pattern k/n: a pattern needs at least 2 threads"},
		{func(p *Pattern) { p.AR = []int{0, 0} }, "pattern k/n: region u1 is used by threads t1 and t2; a region belongs to one thread"},
		{func(p *Pattern) { p.AT[0] = 0 }, "pattern k/n: event 1 has access type Access(0), want r or w"},
		{func(p *Pattern) { p.E = []string{"x", "x"} }, `pattern k/n: duplicate event name "x" in E`},
		{func(p *Pattern) { p.E = []string{"x", ""} }, "pattern k/n: event 2 has an empty name"},
		{func(p *Pattern) { p.Kind, p.Atomic = "race", true }, "pattern race/n: races never involve sync/atomic accesses"},
		{func(p *Pattern) { p.Acting = true }, "pattern k/n: option acting needs the remote events to be reads, event 2 is a write of thread t2"},
		{func(p *Pattern) { p.Acting, p.Chan, p.AT = true, true, []Access{W, R} }, "pattern k/n: option acting does not go with adjacent or chan"},
		{func(p *Pattern) { p.Lock, p.Relock, p.SV, p.AT = true, true, []int{0, 0}, []Access{W, R} }, "pattern k/n: a lock relock pattern is a stale read and the write it read: AT=r-w"},
	}
	if err := good().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		p := good()
		tt.mod(p)
		err := p.Validate()
		if err == nil || err.Error() != tt.want {
			t.Errorf("Validate() = %v, want %s", err, tt.want)
		}
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic on a bad pattern")
		}
	}()
	MustParse("bad")
}
