// Package failing has tests that fail or panic in every run, each after a
// data race on its own field of Box: the check must still prove the races
// from their traces (testdata of check's TestFailingTests).
package failing

type Box struct{ a, b, c, d int }

func (x *Box) SetA(v int) { x.a = v }
func (x *Box) GetA() int  { return x.a }
func (x *Box) SetB(v int) { x.b = v }
func (x *Box) GetB() int  { return x.b }
func (x *Box) SetC(v int) { x.c = v }
func (x *Box) GetC() int  { return x.c }
func (x *Box) SetD(v int) { x.d = v }
func (x *Box) GetD() int  { return x.d }
