// Package drvpoolfixed is drvpool with Submit counting under the mutex
// (pool.go:36-38): two concurrent Submits leave Submitted() = 2. The
// generated drivers copy TestPool's setup as for drvpool; nothing should
// be reported.
package drvpoolfixed
