package pattern_test

import (
	"fmt"

	"github.com/pecanvet/pecanvet/pattern"
)

func ExampleParse() {
	pats, err := pattern.Parse(`
# A lost update through two regions of the same goroutine.
mine/lost-update T = a - b - a  SV = x - x - x  AR = p - q - r  AT = r - w - w
`, "mine.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	p := pats[0]
	fmt.Println(p)
	fmt.Println(p.Describe())
	fmt.Println(p.T, p.AR, p.Threads(), p.Regions(), p.Pos)

	_, err = pattern.Parse("race/RW adjacent atomic T=t1-t2 SV=s1-s1 AR=u1-u2 AT=r-w", "-patterns")
	fmt.Println(err)
	// Output:
	// mine/lost-update T=a-b-a SV=x-x-x AR=p-q-r AT=r-w-w
	// read–write–write "mine" pattern: R(a:p,x) W(b:q,x) W(a:r,x)
	// [0 1 0] [0 1 2] 2 3 mine.txt:3:1
	// -patterns:1:18: races never involve sync/atomic accesses
}

func ExampleKey() {
	race, _ := pattern.Builtin("race")
	rw, wr := race[0], race[1]
	fmt.Println(pattern.Key(rw, []string{"a.go:3:2", "b.go:7:4"}))
	fmt.Println(pattern.Key(wr, []string{"b.go:7:4", "a.go:3:2"}))
	// Output:
	// r@a.go:3:2|w@b.go:7:4
	// r@a.go:3:2|w@b.go:7:4
}
