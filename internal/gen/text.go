package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// Describe prints tr one event per line, in (a subset of) the trace text
// format:
//
//	g op [obj] [@site] [cap=N] [ok=false] [delta=N]   # i
//
// cap for channel operations with a non-zero capacity, ok=false for a
// receive from a closed channel, delta for wg-add; the comment gives the
// event's 0-based index, as the oracle numbers events. It is meant for test
// failure messages and does not depend on the trace package's encoder; Parse
// reads it back.
func Describe(tr *trace.Trace) string {
	var b strings.Builder
	for i, e := range tr.Events {
		line := describeEvent(&tr.Tables, e)
		fmt.Fprintf(&b, "%-40s # %d\n", line, i)
	}
	if tr.Truncated != "" {
		fmt.Fprintf(&b, "# truncated: %s\n", tr.Truncated)
	}
	return b.String()
}

func describeEvent(t *trace.Tables, e trace.Event) string {
	var b strings.Builder
	b.WriteString(t.Name(trace.TabGoroutine, e.G))
	b.WriteByte(' ')
	b.WriteString(e.Op.String())
	if o := t.ObjName(e); o != "" {
		b.WriteByte(' ')
		b.WriteString(o)
	}
	if s := t.Site(e); s != "" {
		b.WriteString(" @")
		b.WriteString(s)
	}
	if e.Op.HasCap() && e.Arg != 0 {
		fmt.Fprintf(&b, " cap=%d", e.Arg)
	}
	if e.Flags&trace.FlagClosed != 0 {
		b.WriteString(" ok=false")
	}
	if e.Op.HasDelta() {
		fmt.Fprintf(&b, " delta=%d", e.Arg)
	}
	if u := trace.UpdateName(e.Flags); u != "" {
		b.WriteString(" update=" + u)
	}
	return b.String()
}

// Parse reads the format Describe prints: one event per line; a field
// starting with '#' starts a comment; blank lines are ignored; "closed" is
// accepted for ok=false. A wg-add without delta= has delta 1.
func Parse(text string) (*trace.Trace, error) {
	tr := &trace.Trace{}
	in := trace.NewInterner(&tr.Tables)
	for ln, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		for i, w := range f {
			if strings.HasPrefix(w, "#") {
				f = f[:i]
				break
			}
		}
		if len(f) == 0 {
			continue
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", ln+1, fmt.Sprintf(format, args...))
		}
		if len(f) < 2 {
			return nil, fail("want: g op [obj] [@site] [cap=N] [ok=false] [delta=N]")
		}
		op, ok := trace.ParseOp(f[1])
		if !ok {
			return nil, fail("unknown op %q", f[1])
		}
		e := trace.Event{Op: op, Obj: trace.NoIndex, Site: trace.NoIndex}
		e.G, _ = in.Intern(trace.TabGoroutine, f[0])
		if op == trace.WGAdd {
			e.Arg = 1
		}
		rest := f[2:]
		if k := op.Object(); k != trace.ObjNone {
			if len(rest) == 0 || strings.HasPrefix(rest[0], "@") || strings.Contains(rest[0], "=") {
				return nil, fail("%s needs an object", op)
			}
			tab := trace.TabObject
			if k == trace.ObjGoroutine {
				tab = trace.TabGoroutine
			}
			e.Obj, _ = in.Intern(tab, rest[0])
			rest = rest[1:]
		}
		for _, w := range rest {
			switch {
			case strings.HasPrefix(w, "@"):
				e.Site, _ = in.Intern(trace.TabSite, w[1:])
			case strings.HasPrefix(w, "cap=") && op.HasCap(), strings.HasPrefix(w, "delta=") && op.HasDelta():
				v, err := strconv.ParseInt(w[strings.IndexByte(w, '=')+1:], 10, 64)
				if err != nil {
					return nil, fail("bad %q", w)
				}
				e.Arg = v
			case (w == "closed" || w == "ok=false") && (op == trace.Recv || op == trace.Send):
				e.Flags |= trace.FlagClosed
			case strings.HasPrefix(w, "update=") && op == trace.AtomicRMW:
				fl, ok := trace.ParseUpdate(strings.TrimPrefix(w, "update="))
				if !ok {
					return nil, fail("bad %q", w)
				}
				e.Flags |= fl
			default:
				return nil, fail("unexpected %q", w)
			}
		}
		tr.Events = append(tr.Events, e)
	}
	return tr, tr.Check()
}

// MustParse is Parse that panics on error, for tests.
func MustParse(text string) *trace.Trace {
	tr, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return tr
}
