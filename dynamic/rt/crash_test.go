//go:build linux || darwin

package rt

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

const crashEnv = "PECANVET_RT_CRASH" // mode of TestCrashChild

// TestCrashChild is the child process of TestCrash: it records n events,
// then ends as the mode says.
func TestCrashChild(t *testing.T) {
	mode := getenv(crashEnv)
	if mode == "" {
		t.Skip("only run by TestCrash")
	}
	mmapChunk = 64 << 10 // cross several chunks
	if err := reset(); err != nil {
		fmt.Println("reset:", err)
		os.Exit(1)
	}
	n, _ := strconv.Atoi(getenv(crashEnv + "_N"))
	x := heap[[4]int]()
	for i := 0; i < n; i++ {
		W(unsafe.Pointer(&x[i%4]), sWrite)
	}
	switch mode {
	case "panic":
		done := make(chan bool)
		go func() {
			defer close(done)
			panic("boom") // kills the process: not recovered by the test
		}()
		<-done
	case "exit":
		Exit(3)
	case "kill":
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "finish":
		Finish()
		os.Exit(0)
	}
	t.Fatal("still alive")
}

func TestCrash(t *testing.T) {
	if getenv(crashEnv) != "" {
		t.Skip("in the child")
	}
	const n = 60000 // ~180 KB of events: several 64 KiB chunks
	for _, mode := range []string{"panic", "exit", "kill", "finish"} {
		t.Run(mode, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace.bin")
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), EnvTrace+"="+path, crashEnv+"="+mode, crashEnv+"_N="+strconv.Itoa(n))
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = new(strings.Builder)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if mode == "kill" {
				line, _ := bufio.NewReader(out).ReadString('\n')
				if line != "ready\n" {
					cmd.Process.Kill()
					t.Fatalf("child said %q", line)
				}
				cmd.Process.Kill() // SIGKILL
			} else {
				go func() { bufio.NewReader(out).WriteTo(new(strings.Builder)) }()
			}
			err = cmd.Wait()
			t.Logf("child: %v", err)
			if (mode == "finish") != (err == nil) {
				t.Errorf("child exit: %v\n%s", err, cmd.Stderr)
			}

			tr, err := trace.ReadFile(path, trace.ReadOptions{Lenient: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Events) != n {
				t.Errorf("%d events, want %d", len(tr.Events), n)
			}
			for i, e := range tr.Events {
				if e.Op != trace.Write || tr.Objects[e.Obj] != "Counter.n#"+strconv.Itoa(i%4+1) {
					t.Fatalf("event %d: %v %s", i+1, e.Op, tr.ObjName(e))
				}
			}
			_, strictErr := trace.ReadFile(path, trace.ReadOptions{})
			switch mode {
			case "exit":
				if tr.Truncated != "os.Exit(3)" || strictErr != nil {
					t.Errorf("truncated %q, strict read: %v", tr.Truncated, strictErr)
				}
			case "finish":
				if tr.Truncated != "" || strictErr != nil {
					t.Errorf("truncated %q, strict read: %v", tr.Truncated, strictErr)
				}
			default:
				if !strings.Contains(tr.Truncated, "without end marker") || strictErr == nil {
					t.Errorf("truncated %q, strict read: %v", tr.Truncated, strictErr)
				}
			}
			t.Logf("truncated: %q", tr.Truncated)
		})
	}
}

// TestOutWrites checks the mmap output directly: writes of any size,
// across chunk boundaries, and the file trimmed at close.
func TestOutWrites(t *testing.T) {
	old := mmapChunk
	mmapChunk = 64 << 10
	defer func() { mmapChunk = old }()
	path := filepath.Join(t.TempDir(), "out")
	o, err := openOut(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for i := 0; i < 3000; i++ {
		p := make([]byte, 1+(i*37)%300)
		if i == 1500 {
			p = make([]byte, 200<<10) // larger than a chunk
		}
		for j := range p {
			p[j] = byte(i + j)
		}
		if n, err := o.Write(p); n != len(p) || err != nil {
			t.Fatal(n, err)
		}
		want = append(want, p...)
	}
	// Before close the file is larger, zero-padded.
	fi, _ := os.Stat(path)
	if fi.Size() < int64(len(want)) {
		t.Fatalf("size %d < %d", fi.Size(), len(want))
	}
	if err := o.close(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(want) {
		t.Fatalf("content differs (%d vs %d bytes)", len(got), len(want))
	}
}

// TestEncoderFlush checks the two trace-package features the runtime
// relies on: Flush on the binary encoder, and lenient decoding of a trace
// followed by zero padding.
func TestEncoderFlush(t *testing.T) {
	var b strings.Builder
	enc := trace.NewBinaryEncoder(&b)
	fl, ok := enc.(interface{ Flush() error })
	if !ok {
		t.Fatal("binary encoder has no Flush")
	}
	tab := &trace.Tables{Goroutines: []string{"g1"}, Objects: []string{"x#1"}}
	for i := 0; i < 3; i++ {
		if err := enc.Encode(trace.Event{Op: trace.Read, Obj: 0, Site: trace.NoIndex}, tab); err != nil {
			t.Fatal(err)
		}
		if err := fl.Flush(); err != nil {
			t.Fatal(err)
		}
		tr, err := trace.ReadTrace(strings.NewReader(b.String()+"\x00\x00\x00\x00"), "t", trace.ReadOptions{Lenient: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(tr.Events) != i+1 || !strings.Contains(tr.Truncated, "zero padding") {
			t.Fatalf("%d events, truncated %q", len(tr.Events), tr.Truncated)
		}
		// Strict reading still rejects the padding.
		if _, err := trace.ReadTrace(strings.NewReader(b.String()+"\x00"), "t", trace.ReadOptions{}); err == nil {
			t.Fatal("strict read accepted zero padding")
		}
	}
}
