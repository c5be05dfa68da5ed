package rt

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/pecanvet/pecanvet/dynamic/trace"
)

// benchRecord starts recording for a benchmark; the trace is discarded.
func benchRecord(b *testing.B) {
	b.Helper()
	recordTo(b)
	b.Cleanup(func() { finish("") })
}

// BenchmarkRecordRW: one read and one write recorded per iteration
// (ns/op is per event pair; see ns/event, and cpu-ns/event: the process's
// CPU, which a loaded machine does not stretch as it does wall time).
func BenchmarkRecordRW(b *testing.B) {
	benchRecord(b)
	x := heap[[8]int]()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		R(unsafe.Pointer(&x[i&7]), sRead)
		W(unsafe.Pointer(&x[i&7]), sWrite)
	}
	b.StopTimer()
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
	b.ReportMetric(float64(cpu)/float64(2*b.N), "cpu-ns/event")
}

// BenchmarkRecordRWParallel: reads and writes from all Ps at once (they
// contend for the recorder's lock).
func BenchmarkRecordRWParallel(b *testing.B) {
	benchRecord(b)
	x := heap[[8]int]()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			R(unsafe.Pointer(&x[i&7]), sRead)
			W(unsafe.Pointer(&x[i&7]), sWrite)
			i++
		}
	})
}

// BenchmarkRecordLockUnlock: Lock and Unlock of a mutex, recorded.
func BenchmarkRecordLockUnlock(b *testing.B) {
	benchRecord(b)
	m := heap[sync.Mutex]()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		Lock(m, sLock)
		Unlock(m, sUnlock)
	}
	b.StopTimer()
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
	b.ReportMetric(float64(cpu)/float64(2*b.N), "cpu-ns/event")
}

// BenchmarkRecordAtomic: an atomic add, recorded.
func BenchmarkRecordAtomic(b *testing.B) {
	benchRecord(b)
	n := heap[int64]()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		AddInt64(n, 1, sAtomic)
	}
}

// BenchmarkRecordChanPingPong: a send and a receive on an unbuffered
// channel between two goroutines per iteration, both sides recorded.
func BenchmarkRecordChanPingPong(b *testing.B) {
	benchRecord(b)
	chanPingPong(b)
}

// BenchmarkNoRecordChanPingPong is BenchmarkRecordChanPingPong with
// recording off.
func BenchmarkNoRecordChanPingPong(b *testing.B) {
	b.Setenv(EnvTrace, "")
	if err := reset(); err != nil {
		b.Fatal(err)
	}
	chanPingPong(b)
}

func chanPingPong(b *testing.B) {
	ping, pong := make(chan int), make(chan int)
	id := Go(sGo)
	go func() {
		Begin(id)
		defer End()
		for {
			v, ok := Recv2(ping, sRecv)
			if !ok {
				return
			}
			Send(pong, v, sSend)
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Send(ping, i, sSend)
		Recv(pong, sRecv)
	}
	b.StopTimer()
	Close(ping, sClose)
}

// BenchmarkRecordRegion: a unit of work begun and ended (a method call
// on a receiver), recorded: ns/event.
func BenchmarkRecordRegion(b *testing.B) {
	benchRecord(b)
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		RegionBegin(sRegion)
		RegionEnd(sRegion)
	}
	b.StopTimer()
	cpu = cpuTime() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
	b.ReportMetric(float64(cpu)/float64(2*b.N), "cpu-ns/event")
}

// BenchmarkRecordMailbox is the shape of go-actor's Test_Mailbox (283,360
// events, issue 30), recorded as check records it (maxGoroutines set):
// the test goroutine sends batches of 32 messages into a buffered channel
// and receives them back from another; a worker forwards each one in a
// method call that reads its queue and calls a nested method: 11 events
// per message, half of them regions and reads. ns/event and cpu-ns/event
// (the two goroutines' CPU, per event).
func BenchmarkRecordMailbox(b *testing.B) {
	defer func(n int) { maxGoroutines = n }(maxGoroutines)
	maxGoroutines = 1024 // predict.MaxGoroutines, as check records
	benchRecord(b)
	q := heap[[2]int]()
	in, out := make(chan int, 64), make(chan int, 64)
	id := Go(sGo)
	done := make(chan struct{})
	go func() {
		Begin(id)
		defer close(done)
		defer End()
		for {
			RegionBegin(sRegion)
			R(unsafe.Pointer(&q[0]), sRead)
			RegionBegin(sRegion)
			R(unsafe.Pointer(&q[1]), sRead)
			RegionEnd(sRegion)
			v, ok := Recv2(in, sRecvB)
			if !ok {
				RegionEnd(sRegion)
				return
			}
			R(unsafe.Pointer(&q[1]), sRead)
			Send(out, v, sSendB)
			RegionEnd(sRegion)
		}
	}()
	const batch = 32
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i += batch {
		n := min(batch, b.N-i)
		for j := 0; j < n; j++ {
			Send(in, j, sSendB)
		}
		for j := 0; j < n; j++ {
			Recv(out, sRecvB)
		}
	}
	b.StopTimer()
	cpu = cpuTime() - cpu
	Close(in, sClose)
	<-done
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(11*b.N), "ns/event")
	b.ReportMetric(float64(cpu)/float64(11*b.N), "cpu-ns/event")
}

// BenchmarkNoRecord: R and W with recording off.
func BenchmarkNoRecord(b *testing.B) {
	b.Setenv(EnvTrace, "")
	if err := reset(); err != nil {
		b.Fatal(err)
	}
	x := heap[[8]int]()
	for i := 0; i < b.N; i++ {
		R(unsafe.Pointer(&x[i&7]), sRead)
		W(unsafe.Pointer(&x[i&7]), sWrite)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
}

// BenchmarkNoRecordLockUnlock: Lock and Unlock through the runtime with
// recording off.
func BenchmarkNoRecordLockUnlock(b *testing.B) {
	b.Setenv(EnvTrace, "")
	if err := reset(); err != nil {
		b.Fatal(err)
	}
	m := heap[sync.Mutex]()
	for i := 0; i < b.N; i++ {
		Lock(m, sLock)
		Unlock(m, sUnlock)
	}
}

func BenchmarkGoid(b *testing.B) {
	if goidOff == 0 {
		goidOff = calibrate()
	}
	var s int64
	for i := 0; i < b.N; i++ {
		s += curGoid()
	}
	sinkInt = s
}

func BenchmarkGoidSlow(b *testing.B) {
	var s int64
	for i := 0; i < b.N; i++ {
		s += slowGoid()
	}
	sinkInt = s
}

var sinkInt int64

// BenchmarkObjectHit: the recorder's object lookup for an address seen
// before (the cost of object identity on every event: with the weak
// pointer check, compare with -tags purego, which names objects by address).
func BenchmarkObjectHit(b *testing.B) {
	w := newRecorder(discard{})
	x := heap[[8]int]()
	for i := range x {
		w.object(uintptr(unsafe.Pointer(&x[i])), classMem, "x")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w.object(uintptr(unsafe.Pointer(&x[i&7])), classMem, "x")
	}
}

// BenchmarkObjectFresh: the object lookup for a freshly allocated variable
// per iteration (a new object each time: the weak pointer is made here).
func BenchmarkObjectFresh(b *testing.B) {
	w := newRecorder(discard{})
	for i := 0; i < b.N; i++ {
		x := heap[[2]int]()
		w.object(uintptr(unsafe.Pointer(&x[1])), classMem, "x")
	}
}

// BenchmarkRecordRWFresh: a read and a write of a freshly allocated
// variable per iteration, recorded (TestNoRaceTinyAlloc's pattern).
func BenchmarkRecordRWFresh(b *testing.B) {
	benchRecord(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x := heap[[2]int]()
		R(unsafe.Pointer(&x[1]), sRead)
		W(unsafe.Pointer(&x[1]), sWrite)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
}

// BenchmarkRecordRWTiny is TestNoRaceTinyAlloc's loop (the race
// detector's testdata): a byte that escapes, so that the tiny allocator
// packs 16 of them in a heap block, read and written once each per
// iteration: every other event names a new object.
func BenchmarkRecordRWTiny(b *testing.B) {
	benchRecord(b)
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		x := heap[byte]()
		R(unsafe.Pointer(x), sRead)
		W(unsafe.Pointer(x), sWrite)
		*x = 42
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/event")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(2*b.N), "cpu-ns/event")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) close() error                { return nil }

// tickerSteps is the program of BenchmarkReplayTicker: g1.1 receives n
// ticks of a 500 µs ticker of the clock, each followed by a write; g1.2
// locks a mutex and writes n times.
func tickerSteps(n int) func() bool {
	return func() bool {
		x, y := heap[int](), heap[int]()
		m := heap[sync.Mutex]()
		var wg sync.WaitGroup
		wg.Add(2)
		id1 := Go(sGo)
		go func() {
			Begin(id1)
			defer wg.Done()
			defer End()
			tk := NewTicker(500 * time.Microsecond)
			defer TickerStop(tk)()
			for i := 0; i < n; i++ {
				Recv(tk.C, sRecv)
				W(unsafe.Pointer(x), sWrite)
				*x = i
			}
		}()
		id2 := Go(sGo)
		go func() {
			Begin(id2)
			defer wg.Done()
			defer End()
			for i := 0; i < n; i++ {
				Lock(m, sLock)
				W(unsafe.Pointer(y), sWrite)
				*y = i
				Unlock(m, sUnlock)
			}
		}()
		wg.Wait()
		return false
	}
}

// BenchmarkReplayTicker replays a recording of tickerSteps(200) in its
// recorded order, every event a step, and reports the replay's wall time
// per step: a tick's turn that waited for the tick in real time (about
// 500 µs) before awaitTimer moved the clock to it.
func BenchmarkReplayTicker(b *testing.B) {
	prog := tickerSteps(200)
	read := recordForced(b) // (the ticks' receives have no recorded send)
	prog()
	tr, _ := read()
	all := make([]int32, len(tr.Events))
	var anomaly []int32
	for i, e := range tr.Events {
		all[i] = int32(i)
		if e.Op == trace.Write && len(anomaly) < 2 && (len(anomaly) == 0 || e.G != tr.Events[anomaly[0]].G) {
			anomaly = append(anomaly, int32(i))
		}
	}
	s, err := trace.NewSchedule(tr, "race/WW", all, anomaly)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "s.sched")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	s.WriteTo(f)
	f.Close()
	b.Setenv(EnvSchedule, path)
	b.Setenv(EnvVerdict, filepath.Join(dir, "verdict.json"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		read := recordForced(b)
		mu.Lock()
		rp = nil
		mu.Unlock()
		b.StartTimer()
		if err := startReplay(); err != nil {
			b.Fatal(err)
		}
		prog()
		b.StopTimer()
		mu.Lock()
		v := rp.final
		rp = nil
		runClock()
		mu.Unlock()
		read() // (not timed: its grace for the ticks' receives)
		if v.Verdict != "reproduced" {
			b.Fatalf("verdict %+v", v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(s.Steps)), "ns/step")
}

// BenchmarkRecordMapStore: a store in one map element recorded with its
// key (XMWK), as before values were recorded, and with its key and the
// stored value's identity (XMWKV, FlagVal): ns/event each.
func BenchmarkRecordMapStore(b *testing.B) {
	p := new(int)
	b.Run("key", func(b *testing.B) {
		benchRecord(b)
		m := heap[map[int]*int]()
		*m = map[int]*int{}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			XMWK(*m, i&7, sWrite)[i&7] = p
		}
	})
	b.Run("keyval", func(b *testing.B) {
		benchRecord(b)
		m := heap[map[int]*int]()
		*m = map[int]*int{}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			XMWKV(*m, i&7, sWrite)(p)[i&7] = p
		}
	})
}

// BenchmarkRecordSliceStore: a store of a slice-typed variable recorded
// as a plain write (XW), as before lengths were recorded, and with the
// stored slice's length (XWL, FlagLen): ns/event each.
func BenchmarkRecordSliceStore(b *testing.B) {
	v := make([]int, 3)
	b.Run("plain", func(b *testing.B) {
		benchRecord(b)
		s := heap[[]int]()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			*XW(s, sWrite) = v
		}
	})
	b.Run("len", func(b *testing.B) {
		benchRecord(b)
		s := heap[[]int]()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			*XWL(s, sWrite)(v) = v
		}
	})
}
