// Package dep is vendored: it exists only in vendor/.
package dep

// Want is the count a test expects.
const Want = 2
