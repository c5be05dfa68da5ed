// Package lib is the workspace's other module.
package lib

// Want is the count a test expects.
const Want = 2
