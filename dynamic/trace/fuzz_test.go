package trace

import (
	"bytes"
	"math/rand"
	"regexp"
	"testing"
)

var (
	textErrRE   = regexp.MustCompile(`^t\.txt:\d+(:\d+)?: `)
	binaryErrRE = regexp.MustCompile(`^t\.bin: byte \d+: `)
)

func FuzzTextDecode(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(TextHeader + "\nmain fork g1 @main.go:10:2\ng1 begin\ng1 write Counter.n @counter.go:14:3\n" +
		"g1 send ch1 @main.go:12 cap=1\nmain recv ch1 @main.go:20 cap=1 ok=false # closed\n" +
		"main wg-add wg @main.go:9 delta=2\ng1 end\nmain join g1\n# truncated: \"panic: boom\\n\"\n"))
	f.Add([]byte("g read x\r\ng rea"))
	f.Add([]byte("g wg-add w delta=-1\ng recv c ok=true cap=0 @a:1:2\n# truncated: x"))
	f.Add([]byte("# pecanvet trace v2\n"))
	f.Add([]byte("g write b#1 @m.go:1\ng write b#0 @m.go:1\ng write b#007 @m.go:1\n"))
	rng := rand.New(rand.NewSource(8))
	for range 5 {
		var buf bytes.Buffer
		if err := WriteText(&buf, randTrace(rng, 10, true)); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := readText(data, false)
		lenient, lerr := readText(data, true)
		if err != nil {
			if !textErrRE.MatchString(err.Error()) {
				t.Fatalf("error without a line number: %v", err)
			}
			if lerr == nil {
				if err := lenient.Check(); err != nil {
					t.Fatalf("lenient result fails Check: %v", err)
				}
				if _, err := readText(textOf(t, lenient), false); err != nil {
					t.Fatalf("lenient result does not round trip: %v", err)
				}
			} else if lerr.Error() != err.Error() {
				t.Fatalf("strict error %v, lenient error %v", err, lerr)
			}
			return
		}
		if lerr != nil || !exactEqual(tr, lenient) {
			t.Fatalf("strict succeeded, lenient: %v", lerr)
		}
		if err := tr.Check(); err != nil {
			t.Fatalf("result fails Check: %v", err)
		}
		// text → Trace → text → Trace is the identity from the first
		// Trace on, and the second text is canonical.
		txt := textOf(t, tr)
		tr2, err := readText(txt, false)
		if err != nil {
			t.Fatalf("re-reading: %v\n%s", err, txt)
		}
		if !exactEqual(tr, tr2) {
			t.Fatalf("text round trip: %s", sameEvents(tr, tr2))
		}
		if txt2 := textOf(t, tr2); !bytes.Equal(txt, txt2) {
			t.Fatalf("text not canonical:\n%q\n%q", txt, txt2)
		}
		// And through the binary format.
		tr3, err := readBinary(binaryOf(t, tr), false)
		if err != nil || !exactEqual(tr, tr3) {
			t.Fatalf("binary round trip: %v", err)
		}
	})
}

func FuzzBinaryDecode(f *testing.F) {
	f.Add([]byte(BinaryMagic + "\x01\xe0"))
	f.Add([]byte(BinaryMagic + "\x01"))
	f.Add([]byte(BinaryMagic + "\x02\xe0"))
	f.Add(bin(def(tagDefG, "g"), def(tagDefObj, "o"), def(tagDefSite, "a.go:1:2"),
		int(Recv)|bNewG|bArg|bFlags, 0, FlagClosed, 0, 1, 4, int(Begin), 0, tagTrunc, 1, "x", tagEnd))
	f.Add(bin(def(tagDefG, "g"), def(tagDefObj, "m"), def(tagDefSite, "a.go:1:2"),
		int(Write)|bNewG|bArg|bFlags, 0, FlagVal, 0, 1, 4, 0xff, 0x01, int(Write)|bFlags, FlagVal, 0, 1, 0, tagEnd))
	f.Add(bin(def(tagDefG, "g"), def(tagDefObj, "q"), def(tagDefSite, "a.go:1:2"),
		int(Write)|bNewG|bFlags, 0, FlagLen, 0, 1, 3, int(Read), 0, 1, int(Write)|bFlags, FlagLen, 0, 1, 0x80, 0x01, tagEnd))
	rng := rand.New(rand.NewSource(9))
	for i := range 6 {
		var buf bytes.Buffer
		if err := WriteBinary(&buf, randTrace(rng, 10, true)); err != nil {
			f.Fatal(err)
		}
		b := buf.Bytes()
		if i%2 == 1 {
			b = b[:len(b)*2/3]
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := readBinary(data, false)
		lenient, lerr := readBinary(data, true)
		if lerr == nil {
			if err := lenient.Check(); err != nil {
				t.Fatalf("lenient result fails Check: %v", err)
			}
		} else if !binaryErrRE.MatchString(lerr.Error()) {
			t.Fatalf("lenient error without a byte offset: %v", lerr)
		}
		if err != nil {
			if !binaryErrRE.MatchString(err.Error()) {
				t.Fatalf("error without a byte offset: %v", err)
			}
			if lerr != nil && lerr.Error() != err.Error() {
				t.Fatalf("strict error %v, lenient error %v", err, lerr)
			}
			return
		}
		if lerr != nil || !exactEqual(tr, lenient) {
			t.Fatalf("strict succeeded, lenient: %v", lerr)
		}
		if err := tr.Check(); err != nil {
			t.Fatalf("result fails Check: %v", err)
		}
		// binary → Trace → binary → Trace keeps the events; the tables
		// lose unused names. From then on it is the identity.
		b := binaryOf(t, tr)
		tr2, err := readBinary(b, false)
		if err != nil {
			t.Fatalf("re-reading: %v", err)
		}
		if d := sameEvents(tr, tr2); d != "" {
			t.Fatalf("binary round trip: %s", d)
		}
		if !exactEqual(canonical(tr), tr2) {
			t.Fatalf("binary round trip not canonical")
		}
		if b2 := binaryOf(t, tr2); !bytes.Equal(b, b2) {
			t.Fatalf("binary not deterministic")
		}
		// And through the text format.
		tr3, err := readText(textOf(t, tr), false)
		if err != nil || !exactEqual(tr2, tr3) {
			t.Fatalf("text round trip: %v", err)
		}
	})
}
