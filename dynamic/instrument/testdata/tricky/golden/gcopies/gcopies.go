// Package gcopies exercises the copies no expression shows as a read or a
// write of the whole: receivers copied by method calls and values, copies
// of slices of structs, string conversions, appends of strings, reflect
// and the standard library's readers and writers.
package gcopies

import (
	"bytes"
	"reflect"
)

// Base has a method with a value receiver and one with a pointer receiver.
type Base struct{ N, M int }

// Get copies its receiver.
func (b Base) Get() int { return b.N }

// Ptr does not.
func (b *Base) Ptr() int { return 1 }

// Outer embeds a pointer to a Base.
type Outer struct {
	pad int
	*Base
}

// Recv calls Get through a pointer and promoted through an embedded
// pointer, Ptr promoted, and takes a method value of Get.
func Recv(p *Base, o *Outer) int {
	done := make(chan bool)
	go func() {
		p.M = 1
		done <- true
	}()
	<-done
	f := p.Get
	return p.Get() + o.Get() + o.Ptr() + f()
}

// Elems copies and appends a slice of structs.
func Elems(x []Base) []Base {
	y := make([]Base, 1)
	copy(y, x)
	y = append(y, x...)
	return y
}

// Strings converts bytes and runes to strings and appends a string.
func Strings(b []byte, r []rune) string {
	c := append(b, "!"...)
	return string(b) + string(r) + string(c)
}

// Reflect sets and reads a variable through reflect, and copies.
func Reflect(i *int, a []byte) int64 {
	v := reflect.ValueOf(i).Elem()
	v.SetInt(3)
	reflect.Copy(reflect.ValueOf(a), reflect.ValueOf(a[1:]))
	return v.Int()
}

// IO reads into a slice and writes from one.
func IO(p []byte) int {
	var buf bytes.Buffer
	buf.Write(p[:2])
	n, _ := buf.Read(p[2:])
	return n
}
