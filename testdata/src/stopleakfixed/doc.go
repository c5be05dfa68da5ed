// Package stopleakfixed is stopleak with grpc-go#660's fix: the probe's
// goroutine selects on its send and on the quit channel
// (monitor.go:26-29), so it ends once the monitor is stopped, whether or
// not the loop took its outcome. Nothing should be reported.
package stopleakfixed
