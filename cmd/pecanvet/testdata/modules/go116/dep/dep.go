// Package dep is the go116 module's dependency.
package dep

import "fmt"

// Label names a count.
func Label(n int) string {
	if n == 1 {
		return "1 event"
	}
	return fmt.Sprint(n, " events")
}
