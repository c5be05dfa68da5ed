package iowritefixed

import (
	"hash"
	"hash/crc32"
)

// Summer hashes the chunks sent on its channel.
type Summer struct {
	in  chan []byte
	ack chan bool
	h   hash.Hash32
}

// New returns a Summer with unbuffered channels.
func New() *Summer { return &Summer{in: make(chan []byte), ack: make(chan bool), h: crc32.NewIEEE()} }

// Run hashes chunks until the channel is closed and returns the sum.
func (s *Summer) Run() uint32 {
	for b := range s.in {
		s.h.Write(b)
		s.ack <- true // b is free again
	}
	return s.h.Sum32()
}

// Fill writes chunk c into buf, hands it to the Summer and waits until it
// was hashed.
func Fill(s *Summer, buf []byte, c string) {
	copy(buf, c)
	s.in <- buf[:len(c)]
	<-s.ack
}
