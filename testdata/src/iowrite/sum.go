package iowrite

import (
	"hash"
	"hash/crc32"
)

// Summer hashes the chunks sent on its channel.
type Summer struct {
	in chan []byte
	h  hash.Hash32
}

// New returns a Summer with an unbuffered channel.
func New() *Summer { return &Summer{in: make(chan []byte), h: crc32.NewIEEE()} }

// Run hashes chunks until the channel is closed and returns the sum.
func (s *Summer) Run() uint32 {
	for b := range s.in {
		s.h.Write(b) // want "data race on \\[\\]byte_elem"
	}
	return s.h.Sum32()
}

// Fill writes chunk c into buf and hands it to the Summer.
func Fill(s *Summer, buf []byte, c string) {
	copy(buf, c)
	s.in <- buf[:len(c)]
}
