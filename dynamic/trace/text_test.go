package trace

import (
	"errors"
	"strings"
	"testing"
)

// canonicalLines returns the event lines the text writer produces for tr
// (without the header).
func canonicalLines(t *testing.T, tr *Trace) string {
	t.Helper()
	s := string(textOf(t, tr))
	s, ok := strings.CutPrefix(s, TextHeader+"\n")
	if !ok {
		t.Fatalf("no header in %q", s)
	}
	return s
}

func TestTextValid(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: canonical text, without the header
	}{
		{"", ""},
		{"\n\n  \t \n", ""},
		{"# just a comment\n", ""},
		{TextHeader + "\n", ""},
		{"main read x", "main read x\n"}, // no final newline
		{"main read x\n", "main read x\n"},
		{"main read x\r\n", "main read x\n"},
		{"\tg1 \t write   Counter.n   @c.go:14:3   # a comment\n", "g1 write Counter.n @c.go:14:3\n"},
		{"g read x #comment", "g read x\n"},
		{"g read a#b @f.go:1#2:3", "g read a#b @f.go:1#2:3\n"},
		{"g read x@y", "g read x@y\n"},
		{`g read x @C:\a\b.go:3`, "g read x @C:\\a\\b.go:3\n"},
		{"g read x @a=b.go:3 # = in site file", "g read x @a=b.go:3\n"},
		{"g read x @#a.go:1", "g read x @#a.go:1\n"},
		{"g read x @a.go:007", "g read x @a.go:007\n"},
		{"g read x @a:b:3", "g read x @a:b:3\n"},
		{"g read 日本 @ü.go:1:1", "g read 日本 @ü.go:1:1\n"},
		{"1.2 atomic-rmw 1.2", "1.2 atomic-rmw 1.2\n"},
		{"g send ch @m.go:1 cap=2", "g send ch @m.go:1 cap=2\n"},
		{"g send ch cap=0", "g send ch\n"},
		{"g send ch cap=+3", "g send ch cap=3\n"},
		{"g close ch cap=9223372036854775807", "g close ch cap=9223372036854775807\n"},
		{"g recv ch cap=0 ok=true", "g recv ch\n"},
		{"g recv ch ok=false cap=3 @m.go:2", "g recv ch @m.go:2 cap=3 ok=false\n"},
		{"g send ch ok=false @m.go:2", "g send ch @m.go:2 ok=false\n"}, // panicked on the closed channel
		{"g wg-add wg", "g wg-add wg delta=1\n"},
		{"g read m key=-7 @m.go:3", "g read m @m.go:3 key=-7\n"},
		{"g write m key=12", "g write m key=12\n"},
		{"g write m val=0 key=12", "g write m key=12 val=0\n"},
		{"g write m key=-3 val=18446744073709551615", "g write m key=-3 val=18446744073709551615\n"},
		{"g write q len=7 @q.go:3", "g write q @q.go:3 len=7\n"},
		{"g atomic-rmw n update=add @c.go:3", "g atomic-rmw n @c.go:3 update=add\n"},
		{"g atomic-rmw n update=or", "g atomic-rmw n update=or\n"},
		{"g wg-add wg delta=-3", "g wg-add wg delta=-3\n"},
		{"g wg-add wg delta=0", "g wg-add wg delta=0\n"},
		{"g wg-add wg delta=-9223372036854775808", "g wg-add wg delta=-9223372036854775808\n"},
		{"main fork g2 @m.go:3\ng2 begin\ng2 end @m.go:4:1\nmain join g2", "main fork g2 @m.go:3\ng2 begin\ng2 end @m.go:4:1\nmain join g2\n"},
		{"g begin # begin has no object", "g begin\n"},
		{"g end @x.go:1", "g end @x.go:1\n"},
		{"g lock mu\ng unlock mu\ng rlock mu\ng runlock mu", "g lock mu\ng unlock mu\ng rlock mu\ng runlock mu\n"},
		{"g wg-done wg\ng wg-wait wg\ng once o\ng cond-wait c\ng cond-signal c\ng cond-broadcast c",
			"g wg-done wg\ng wg-wait wg\ng once o\ng cond-wait c\ng cond-signal c\ng cond-broadcast c\n"},
		{"g region-begin Counter.Inc\ng region-end Counter.Inc", "g region-begin Counter.Inc\ng region-end Counter.Inc\n"},
		{"g atomic-load a\ng atomic-store a\ng write a", "g atomic-load a\ng atomic-store a\ng write a\n"},
		{"# truncated: panic: boom\ng read x", "g read x\n# truncated: panic: boom\n"},
		{"g read x\n#truncated:boom", "g read x\n# truncated: boom\n"},
		{"# truncated: a\n# truncated:   b  \n", "# truncated: b\n"},
		{"# truncated:\n# truncated:   \n", ""},
		{"# truncated: \"a\\nb\"", "# truncated: \"a\\nb\"\n"},
		{"# truncated: \"unterminated", "# truncated: \"\\\"unterminated\"\n"},
		{"# truncated: \"\"", ""},
		{"g read x # truncated: not a directive", "g read x\n"},
		{"# pecanvet trace v1\n# pecanvet trace vX\n# pecanvet trace", ""},
	} {
		tr, err := readText([]byte(c.in), false)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if err := tr.Check(); err != nil {
			t.Errorf("%q: %v", c.in, err)
		}
		if got := canonicalLines(t, tr); got != c.want {
			t.Errorf("%q:\ngot  %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestTextTables(t *testing.T) {
	tr, err := readText([]byte("main fork g2 @m.go:3\ng2 read x @m.go:9\nmain read y @m.go:3\ng2 write x\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	want := &Trace{
		Tables: Tables{Goroutines: []string{"main", "g2"}, Objects: []string{"x", "y"}, Sites: []string{"m.go:3", "m.go:9"}},
		Events: []Event{
			{G: 0, Op: Fork, Obj: 1, Site: 0},
			{G: 1, Op: Read, Obj: 0, Site: 1},
			{G: 0, Op: Read, Obj: 1, Site: 0},
			{G: 1, Op: Write, Obj: 0, Site: -1},
		},
	}
	if !exactEqual(tr, want) {
		t.Errorf("got %+v\nwant %+v", tr, want)
	}
}

func TestTextErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // the whole prefix "t.txt:LINE[:COL]: " and a fragment of the message
	}{
		{"main rd x", `t.txt:1: unknown op "rd" (want one of read, write, atomic-load, atomic-store, atomic-rmw, lock,`},
		{"main invalid x", `t.txt:1: unknown op "invalid"`},
		{"main READ x", `t.txt:1: unknown op "READ"`},
		{"g read x\n\nmain lock\n", "t.txt:3: lock needs an object"},
		{"main lock # mu", "t.txt:1: lock needs an object"},
		{"g read @x.go:1", "t.txt:1: read needs an object"},
		{"g read cap=1", "t.txt:1: read needs an object"},
		{"g fork", "t.txt:1: fork needs an object (the goroutine it starts)"},
		{"g join @a.go:1", "t.txt:1: join needs an object (the goroutine it waits for)"},
		{"g begin x", `t.txt:1:9: begin takes no object (found "x")`},
		{"g end x @a.go:1", `t.txt:1:7: end takes no object (found "x")`},
		{"g read x y", `t.txt:1:10: unexpected field "y"`},
		{"g read x# not a comment", `t.txt:1:11: unexpected field "not"`},
		{"g read x @a.go:1 y", `t.txt:1:18: unexpected field "y"`},
		{"g\n", `t.txt:1: missing op after goroutine "g"`},
		{"g # read x", `t.txt:1: missing op after goroutine "g"`},
		{"@x.go:1 read y", `t.txt:1:1: bad goroutine name "@x.go:1": name may not start with '@'`},
		{"a=b read y", `t.txt:1:2: bad goroutine name "a=b": name may not contain '='`},
		{"g read a=b", `t.txt:1: read needs an object`},
		{"g\vread x", `t.txt:1:2: bad goroutine name "g\vread": name may not contain control character '\v'`},
		{"g read x\x01y", `t.txt:1:9: bad object name "x\x01y": name may not contain control character '\x01'`},
		{"g read \xff", `t.txt:1:8: bad object name "\xff": name is not valid UTF-8`},
		{"g read a\u00a0b", `t.txt:1:9: bad object name "a\u00a0b": name may not contain U+00A0`},
		{"g read x\ng write x#0 @f.go:1", `t.txt:2:10: bad object name "x#0": instance #0 does not exist (instances count from #1)`},
		{"g fork =x", `t.txt:1: fork needs an object`},
		{"g read x cap=1", `t.txt:1:10: key "cap" not allowed on read`},
		{"g atomic-load x key=1", `t.txt:1:17: key "key" not allowed on atomic-load`},
		{"g read x key=0", `t.txt:1:14: bad key value "0": want a non-zero integer`},
		{"g read x key=1 val=2", `t.txt:1:16: key "val" not allowed on read`},
		{"g write x val=-1", `t.txt:1:15: bad val value "-1": want an unsigned integer`},
		{"g write x val=1 val=1", `t.txt:1:17: duplicate key "val"`},
		{"g read x len=2", `t.txt:1:10: key "len" not allowed on read`},
		{"g write x len=-2", `t.txt:1:15: bad len value "-2": want an unsigned integer`},
		{"g write x val=1 len=1", `t.txt:1:17: key "len" not allowed on write`},
		{"g lock x ok=false", `t.txt:1:10: key "ok" not allowed on lock`},
		{"g atomic-load x update=add", `t.txt:1:17: key "update" not allowed on atomic-load`},
		{"g atomic-rmw x update=mul", `t.txt:1:23: bad update value "mul": want add, and or or (with -unused or not)`},
		{"g atomic-rmw x update=add update=or", `t.txt:1:27: duplicate key "update"`},
		{"g close x ok=true", `t.txt:1:11: key "ok" not allowed on close`},
		{"g wg-done x delta=1", `t.txt:1:13: key "delta" not allowed on wg-done`},
		{"g recv x delta=1", `t.txt:1:10: key "delta" not allowed on recv`},
		{"g send c cap=-1", `t.txt:1:14: bad cap value "-1": want an integer ≥ 0`},
		{"g send c cap=x", `t.txt:1:14: bad cap value "x"`},
		{"g send c cap=", `t.txt:1:14: bad cap value ""`},
		{"g send c cap=1.5", `t.txt:1:14: bad cap value "1.5"`},
		{"g send c cap=9223372036854775808", `t.txt:1:14: bad cap value "9223372036854775808"`},
		{"g recv c ok=maybe", `t.txt:1:13: bad ok value "maybe": want true or false`},
		{"g recv c ok=False", `t.txt:1:13: bad ok value "False"`},
		{"g wg-add w delta=1.5", `t.txt:1:18: bad delta value "1.5": want an integer`},
		{"g wg-add w delta=", `t.txt:1:18: bad delta value ""`},
		{"g send c cap=1 cap=2", `t.txt:1:16: duplicate key "cap"`},
		{"g recv c ok=true ok=true", `t.txt:1:18: duplicate key "ok"`},
		{"g wg-add w delta=1 delta=1", `t.txt:1:20: duplicate key "delta"`},
		{"g read x foo=1", `t.txt:1:10: unknown key "foo" (want cap, ok, delta, update, blocked, key, val or len)`},
		{"g read x =1", `t.txt:1:10: unknown key ""`},
		{"g read x CAP=1", `t.txt:1:10: unknown key "CAP"`},
		{"g read x @a.go:1 @b.go:2", `t.txt:1:18: more than one site`},
		{"g read x @a.go", `t.txt:1:11: bad site: site "a.go" has no line number (want file:line or file:line:col)`},
		{"g read x @", `t.txt:1:11: bad site: empty site`},
		{"g read x @a.go:0", `t.txt:1:16: bad site: site "a.go:0": 0 is not positive`},
		{"g read x @a.go:x", `t.txt:1:16: bad site: site "a.go:x": "x" is not a number`},
		{"g read x @a.go:", `t.txt:1:16: bad site: site "a.go:": "" is not a number`},
		{"g read x @a.go:1:0", `t.txt:1:18: bad site: site "a.go:1:0": 0 is not positive`},
		{"g read x @a.go:0:1", `t.txt:1:16: bad site: site "a.go:0:1": line 0 is not positive`},
		{"g read x @a.go:-1", `t.txt:1:16: bad site: site "a.go:-1": "-1" is not a number`},
		{"g read x @a.go:2147483648", `t.txt:1:16: bad site: site "a.go:2147483648": "2147483648" is too large`},
		{"g read x @:3", `t.txt:1:11: bad site: site ":3" has an empty file name`},
		{"g read x @:1:3", `t.txt:1:11: bad site: site ":1:3" has an empty file name`},
		{"g read x @a.go:1\x00", `t.txt:1:17: bad site: site may not contain control character '\x00'`},
		{"# pecanvet trace v2\ng read x", `t.txt:1: unsupported text trace version v2; this pecanvet reads v1`},
		{"g read x\n" + strings.Repeat("y", maxLineLen+10) + "\n", "t.txt:2: line too long"},
		{"g read x\ng rea", `t.txt:2: unknown op "rea"`},
	} {
		_, err := readText([]byte(c.in), false)
		if err == nil {
			t.Errorf("%.40q: no error, want %s", c.in, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%.40q:\ngot  %.300s\nwant %s...", c.in, err, c.want)
		}
		var de *DecodeError
		if !errors.As(err, &de) || de.Line == 0 || de.Name != "t.txt" {
			t.Errorf("%.40q: error %#v is not a text DecodeError", c.in, err)
		}
		// Nothing of the bad line is interned; errors are sticky.
		d := newTextDecoder(strings.NewReader(c.in), "t.txt", false)
		var err1 error
		for err1 == nil {
			_, err1 = d.Next()
		}
		if _, err2 := d.Next(); err2 != err1 {
			t.Errorf("%.40q: error not sticky: %v then %v", c.in, err1, err2)
		}
		if !strings.HasPrefix(c.in, "g read x\n") && len(d.Tables().Goroutines) != 0 {
			t.Errorf("%.40q: bad line interned names: %v", c.in, d.Tables())
		}
	}
}

func TestTextLenient(t *testing.T) {
	for _, c := range []struct {
		in       string
		events   int
		trunc    string
		strictOK bool
	}{
		{"g read x\ng rea", 1, "trace ends inside line 2, which has no newline (writer killed?)", false},
		{"g read x\ng read y", 2, "", true},
		{"g read x\ng read y\n", 2, "", true},
		{"g read x\n# truncated: boom\ng rea", 1, "boom", false},
		{"g read x\ng rea\n", -1, "", false}, // a complete bad line is an error
		{"g lock\ng read x\n", -1, "", false},
	} {
		tr, err := readText([]byte(c.in), true)
		if c.events < 0 {
			if err == nil {
				t.Errorf("%q: lenient: no error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: lenient: %v", c.in, err)
			continue
		}
		if len(tr.Events) != c.events || tr.Truncated != c.trunc {
			t.Errorf("%q: lenient: %d events, truncated %q; want %d, %q", c.in, len(tr.Events), tr.Truncated, c.events, c.trunc)
		}
		if c.events == 1 && (len(tr.Objects) != 1 || len(tr.Goroutines) != 1) {
			t.Errorf("%q: lenient: tables %v", c.in, tr.Tables)
		}
		if _, err := readText([]byte(c.in), false); (err == nil) != c.strictOK {
			t.Errorf("%q: strict: %v", c.in, err)
		}
	}
}

// TestTextCanonical checks text → Trace → text on canonical text.
func TestTextCanonical(t *testing.T) {
	in := TextHeader + `
main fork g1 @main.go:10:2
g1 begin
g1 write Counter.n @counter.go:14:3
g1 send ch1 @main.go:12 cap=1
main recv ch1 @main.go:20 cap=1 ok=false
main recv ch1 @main.go:20 cap=1
main wg-add wg @main.go:9 delta=2
g1 end
main join g1
main read x#1 @C:\x.go:1
main write m @m.go:4:3 key=99
# truncated: "panic: boom\n\ngoroutine 1 [running]:"
`
	tr, err := readText([]byte(in), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(textOf(t, tr)); got != in {
		t.Errorf("got\n%s\nwant\n%s", got, in)
	}
	if tr.Truncated != "panic: boom\n\ngoroutine 1 [running]:" {
		t.Errorf("truncated %q", tr.Truncated)
	}
}

func TestNeedsQuote(t *testing.T) {
	for _, r := range genReasons {
		tr := &Trace{Truncated: r}
		got, err := readText(textOf(t, tr), false)
		if err != nil || got.Truncated != r {
			t.Errorf("%q: got %q, %v", r, got.Truncated, err)
		}
		if needsQuote(r) == (r == "panic: boom" || r == "timeout after 10s" || r == "#" || r == "") {
			t.Errorf("needsQuote(%q) = %v", r, needsQuote(r))
		}
	}
}

func TestTextReadError(t *testing.T) {
	r := &failReader{data: []byte("g read x\ng write y\n"), err: errors.New("disk on fire")}
	_, err := decodeAll(NewTextDecoder(r, "t.txt"))
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.HasPrefix(err.Error(), "t.txt:3: read error") {
		t.Errorf("got %v", err)
	}
	if !errors.Is(err, r.err) {
		t.Errorf("error does not wrap the reader's")
	}
}

// failReader returns data, then err.
type failReader struct {
	data []byte
	err  error
}

func (r *failReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		in     string
		binary bool
	}{
		{"", false},
		{"g read x", false},
		{"P", true},
		{"PCNTR", true},
		{"PCNTRC", true},
		{"PCNTRX", false},
		{"PCN\n", false},
	} {
		d, err := NewDecoderOptions(strings.NewReader(c.in), "x", ReadOptions{Lenient: true})
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if _, ok := d.(*binaryDecoder); ok != c.binary {
			t.Errorf("%q: binary %v, want %v", c.in, ok, c.binary)
		}
	}
	if !IsBinary([]byte(BinaryMagic+"\x01")) || IsBinary([]byte("PCNTR")) || IsBinary(nil) {
		t.Errorf("IsBinary")
	}
}

func TestLongErrorMessages(t *testing.T) {
	long := strings.Repeat("x", 100000)
	for _, in := range []string{"g " + long, "g read x " + long, long + "=1 read x", "g read x @" + long, "g read x cap=" + long} {
		_, err := readText([]byte(in), false)
		if err == nil || len(err.Error()) > 400 {
			t.Errorf("%.30q: error %.400v", in, err)
		}
	}
	_, err := readBinary(bin(def(tagDefObj, long+" ")), false)
	if err == nil || len(err.Error()) > 400 {
		t.Errorf("binary: error %.400v", err)
	}
}
