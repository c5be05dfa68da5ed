package instrument

import (
	"go/types"
	"testing"
)

// TestTestingTAccess: a call of a method of the test's T reads the T (so a
// goroutine that logs through it after the test ended races with the end),
// except the methods that touch nothing a finished test guards: Context
// among them, whose cancellation is how a goroutine the test does not wait
// for learns that the test is over (open-feature/go-sdk's memprovider
// test, session 23's trial 8; subject ctxdrainfixed).
func TestTestingTAccess(t *testing.T) {
	pkg := types.NewPackage("testing", "testing")
	named := func(name string) types.Type {
		return types.NewPointer(types.NewNamed(types.NewTypeName(0, pkg, name, nil), types.NewStruct(nil, nil), nil))
	}
	for _, typ := range []string{"T", "B", "F", "TB"} {
		for m, want := range map[string]bool{
			"Logf": true, "Errorf": true, "Fatal": true, "Cleanup": true, "TempDir": true,
			"Context": false, "Name": false, "Helper": false, "Run": false, "Parallel": false,
		} {
			write, ok := stdAccess(named(typ), m)
			if ok != want || write {
				t.Errorf("stdAccess(*testing.%s, %s) = write %v, ok %v; want a read: %v", typ, m, write, ok, want)
			}
		}
	}
}
