package iowrite

import (
	"hash/crc32"
	"testing"
	"time"
)

func TestSum(t *testing.T) {
	s := New()
	sum := make(chan uint32)
	go func() { sum <- s.Run() }()
	buf := make([]byte, 4) // reused for every chunk
	Fill(s, buf, "abcd")
	time.Sleep(5 * time.Millisecond) // the hash reads the first chunk first
	Fill(s, buf, "efgh")
	close(s.in)
	if got, want := <-sum, crc32.ChecksumIEEE([]byte("abcdefgh")); got != want {
		t.Errorf("sum %#x, want %#x", got, want)
	}
}
