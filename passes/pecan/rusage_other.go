//go:build !unix

package pecan

// peakRSS is not measured here.
func peakRSS() int64 { return 0 }
