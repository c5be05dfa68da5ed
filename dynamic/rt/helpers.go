package rt

import (
	"strings"
	"unsafe"
)

// The helpers that instrumented expressions call (dynamic/instrument).
//
// Each returns what it was given, so that the access it records stays
// where the expression evaluates it: *XR(&x, site) reads x after recording
// the read. They were emitted into every rewritten file, 25 generic
// functions per file, each instantiated and compiled once per file; here
// they are compiled once, and instantiated once per package that uses
// them (issue 30: the race testdata package's 22 files held 83 KB of
// them). They are small enough to be inlined at every call.

// XR records a read of *p at site and returns p.
func XR[T any](p *T, s int32) *T { R(unsafe.Pointer(p), s); return p }

// XW records a write of *p at site and returns p.
func XW[T any](p *T, s int32) *T { W(unsafe.Pointer(p), s); return p }

// XRV records a read of the whole value *p (RV) and returns p.
func XRV[T any](p *T, s int32) *T { RV(p, s); return p }

// XWV records a write of the whole value *p (WV) and returns p.
func XWV[T any](p *T, s int32) *T { WV(p, s); return p }

// XSet returns the function that records a write of *p at site and
// then stores its argument there. `rt.XSet(&x, site)(f())` records the
// write after f returns, as the store happens; the inline form
// `*XW(&x, site) = f()` records it before f runs (Go calls the left-hand
// side's XW first), so a call that blocks or synchronizes (a server's
// Serve until its shutdown) looked unordered with every access during it.
// For assignments that cannot become a block: an if, switch or for
// statement's init, a for statement's post (dynamic/instrument's assign).
func XSet[T any](p *T, s int32) func(T) {
	return func(v T) { W(unsafe.Pointer(p), s); *p = v }
}

// XSetV is XSet recording a write of the whole value *p (WV).
func XSetV[T any](p *T, s int32) func(T) {
	return func(v T) { WV(p, s); *p = v }
}

// XRW records a read then a write of *p and returns p.
func XRW[T any](p *T, s int32) *T {
	R(unsafe.Pointer(p), s)
	W(unsafe.Pointer(p), s)
	return p
}

// XMR records a read of the map m (as one location) and returns m.
func XMR[M any](m M, s int32) M {
	if p := mapPtr(m); p != nil {
		R(p, s)
	}
	return m
}

// XMW records a write of the map m and returns m.
func XMW[M any](m M, s int32) M {
	if p := mapPtr(m); p != nil {
		W(p, s)
	}
	return m
}

// XMRW records a read then a write of the map m and returns m.
func XMRW[M any](m M, s int32) M {
	if p := mapPtr(m); p != nil {
		R(p, s)
		W(p, s)
	}
	return m
}

// XMRK records a read of m's element of key k (RK) and returns m.
func XMRK[M any](m M, k any, s int32) M {
	if p := mapPtr(m); p != nil {
		RK(p, KeyHash(k), s)
	}
	return m
}

// XMWK records a write of m's element of key k (WK) and returns m.
func XMWK[M any](m M, k any, s int32) M {
	if p := mapPtr(m); p != nil {
		WK(p, KeyHash(k), s)
	}
	return m
}

// XWL returns the function that records a write of the slice-typed
// variable *p that stores its argument v, with v's length (WL), and
// returns p: `*rt.XWL(p, s)(v) = v`, v a temporary or a constant, so
// that evaluating it twice gives one value. v is converted to p's
// element type as the store converts it (nil), since S is inferred from
// p alone. The write is recorded before the store, as W's is.
func XWL[S ~[]E, E any](p *S, s int32) func(S) *S {
	return func(v S) *S {
		WL(unsafe.Pointer(p), len(v), s)
		return p
	}
}

// XMWKV returns the function that records a write of m's element of
// key k that stores its argument v (WKV, with v's identity ValID) and
// returns m: `rt.XMWKV(m, k, s)(v)[k] = v`. v is converted to m's
// element type V as the store converts it (an untyped constant, a named
// pointer type, nil), since V is inferred from m alone. Only for element
// types ValID takes (dynamic/instrument's valIdentified).
func XMWKV[M ~map[K]V, K comparable, V any](m M, k any, s int32) func(V) M {
	return func(v V) M {
		if active.Load() {
			if p := mapPtr(m); p != nil {
				WKV(p, KeyHash(k), ValID(v), s)
			}
		}
		return m
	}
}

// XMRWK records a read then a write of m's element of key k and returns m.
func XMRWK[M any](m M, k any, s int32) M {
	if p := mapPtr(m); p != nil {
		h := KeyHash(k)
		RK(p, h, s)
		WK(p, h, s)
	}
	return m
}

// mapPtr is the pointer a map value (in an interface) carries.
func mapPtr(m any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&m))[1] }

// XE returns the zero value of c's element type.
func XE[T any](c chan<- T) (z T) { return }

// XRS ranges over x's elements, each read recorded just before the loop
// body sees it.
func XRS[S ~[]E, E any](x S, s int32) func(func(int, E) bool) {
	return func(y func(int, E) bool) {
		for i := range x {
			if !y(i, *XR(&x[i], s)) {
				return
			}
		}
	}
}

// XCP is copy(d, x) with the elements it reads and writes recorded.
func XCP[D ~[]E, S ~[]E, E any](d D, x S, sw, sr int32) int {
	if k := min(len(d), len(x)); k > 0 {
		RRangeV(&x[0], k, sr)
		WRangeV(&d[0], k, sw)
	}
	return copy(d, x)
}

// XCPS is copy(d, x) of a string x, with the bytes it writes recorded.
func XCPS[D ~[]byte, S ~string](d D, x S, sw int32) int {
	if k := min(len(d), len(x)); k > 0 {
		WRange(unsafe.Pointer(&d[0]), k, 1, sw)
	}
	return copy(d, x)
}

// XAP is append(x, v...) with the elements it writes or copies recorded.
func XAP[S ~[]E, E any](x S, sw int32, v ...E) S {
	XApp(x, len(v), sw)
	return append(x, v...)
}

// XAPS is append(x, v...) of a spread slice v, whose elements it reads.
func XAPS[S ~[]E, V ~[]E, E any](x S, v V, sw, sr int32) S {
	XApp(x, len(v), sw)
	if len(v) > 0 {
		RRangeV(&v[0], len(v), sr)
	}
	return append(x, v...)
}

// XAPSS is append(x, v...) of a string v.
func XAPSS[S ~[]byte, V ~string](x S, v V, sw int32) S {
	XApp(x, len(v), sw)
	return append(x, v...)
}

// XSR records the reads of x's elements (string(x) of a []byte or []rune)
// and returns x.
func XSR[S ~[]E, E any](x S, s int32) S {
	if len(x) > 0 {
		RRangeV(&x[0], len(x), s)
	}
	return x
}

// XApp records what appending k elements to x does to x's array: writes
// of the elements past the length when they fit, else reads of the old
// ones that it copies. It returns x.
func XApp[S ~[]E, E any](x S, k int, sw int32) S {
	if k == 0 {
		return x
	}
	if len(x)+k <= cap(x) {
		y := x[:len(x)+k]
		WRangeV(&y[len(x)], k, sw)
	} else if len(x) > 0 {
		RRangeV(&x[0], len(x), sw)
	}
	return x
}

// XIORD calls a Read f(p) and records the writes of p[:n].
func XIORD[B ~[]byte](f func(B) (int, error), p B, s int32) (int, error) {
	k, err := f(p)
	if k > 0 && k <= len(p) {
		WRangeV(&p[0], k, s)
	}
	return k, err
}

// XIORA calls a ReadAt f(p, off) and records the writes of p[:n].
func XIORA[B ~[]byte](f func(B, int64) (int, error), p B, off int64, s int32) (int, error) {
	k, err := f(p, off)
	if k > 0 && k <= len(p) {
		WRangeV(&p[0], k, s)
	}
	return k, err
}

// XIOWR calls a Write f(p) and records a read of p[0].
func XIOWR[B ~[]byte](f func(B) (int, error), p B, s int32) (int, error) {
	k, err := f(p)
	if k > 0 && k <= len(p) {
		RRangeV(&p[0], 1, s)
	}
	return k, err
}

// Sites registers a file's sites from table under the next free ids
// (RegisterNext, or RegisterNextQuiet when quietFile) and returns the first.
// The instrumenter emits it as the initializer of the file's site base,
// `var pecanvetS__N = rt.Sites(quiet, "…")`: one string literal instead
// of a composite literal of a Site per site, which the compiler
// type-checked and laid out site by site (issue 30). table is the path P
// of the file's first site, then one line per site: its Pos, or
// ":line:col" for P + ":line:col", a tab, its Obj (the instrumenter's
// siteTable writes it). A line that starts with a tab is a loud site: in
// a quiet file, its plain accesses are recorded all the same (a dep's
// plain access of a word it updates atomically).
func Sites(quietFile bool, table string) int32 {
	path, rest, _ := strings.Cut(table, "\n")
	sites := make([]Site, 0, strings.Count(rest, "\n"))
	var loud []int
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.HasPrefix(line, "\t") {
			loud = append(loud, len(sites))
			line = line[1:]
		}
		pos, obj, _ := strings.Cut(line, "\t")
		if strings.HasPrefix(pos, ":") {
			pos = path + pos
		}
		sites = append(sites, Site{Pos: pos, Obj: obj})
	}
	if !quietFile {
		return RegisterNext(sites)
	}
	mu.Lock()
	first := int32(len(regs))
	registerLocked(first, sites)
	markQuietLocked(first, len(sites))
	for _, i := range loud {
		quiet[int(first)+i] = false
	}
	mu.Unlock()
	return first
}
