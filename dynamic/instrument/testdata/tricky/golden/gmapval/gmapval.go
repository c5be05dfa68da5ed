// Package gmapval stores values in the elements of shared maps. A store
// m[k] = v records the stored value's identity (val=N) when the map's
// element type is, underneath, a pointer, channel, map, func,
// unsafe.Pointer, boolean, integer or float: its bits, as stored (a
// constant converted to the element type). An interface or a string
// element records none.
package gmapval

type node struct{ n int }

type ptr *node

type flag bool

type peers map[string]*node

// Stores runs the stores in a goroutine; the maps are shared with it.
func Stores() (peers, map[int]any) {
	a, b := &node{1}, &node{2}
	m := peers{}
	ints := map[string]int{}
	fl := map[int]float64{}
	bs := map[int]flag{}
	ifs := map[int]any{}
	strs := map[int]string{}
	chs := map[int]<-chan bool{}
	done := make(chan bool)
	go func() {
		m["x"] = a // val=a's address
		m["x"] = a // the same
		m["y"] = b // b's
		var p ptr = a
		m["z"] = p   // a named pointer type: a's address
		m["w"] = nil // val=0
		ints["i"] = -1
		ints["j"], ints["k"] = 7, 8
		fl[1] = 1     // 1.0's bits
		bs[2] = true  // val=1
		ifs[3] = a    // an interface: no val
		strs[4] = "s" // a string: no val
		chs[5] = done // a channel: its address
		ints["i"] += 2
		done <- true
	}()
	<-done
	return m, ifs
}
