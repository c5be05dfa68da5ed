package replay

import "testing"

func TestPanicFrame(t *testing.T) {
	for _, c := range []struct{ name, out, want string }{
		{"nil dereference in package code", `=== RUN   TestCloseWhileServiceConfigUpdate
panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x58dd11]

goroutine 12 [running]:
bugs/grpc2371.(*ccBalancerWrapper).handleResolvedAddrs(0x0, {0x3416e9ac63c0, 0x1, 0x1})
	/m/grpc2371/clientconn.go:36 +0x71
bugs/grpc2371.(*ClientConn).handleServiceConfig(0x3416e9b3a230, {0x605c1b, 0x25})
	/m/grpc2371/clientconn.go:110 +0x185
created by bugs/grpc2371.Dial in goroutine 6
	/m/grpc2371/clientconn.go:101 +0x2b8
`, "/m/grpc2371/clientconn.go:36"},
		{"close through pecanvet's runtime and the Go root", `=== RUN   TestUpThenClose
panic: close of closed channel

goroutine 24 [running]:
pecanvet.invalid/rt_e8f01555/rt.Close[...](0x2d70ef890310?, 0x9)
	api.go:767 +0x76
sync.(*Mutex).Lock(0x0)
	/usr/local/go/src/sync/mutex.go:80 +0x1
bugs/etcd6429.(*simpleBalancer).Up(0x2d70ef8a31d0, {0x5fb90b, 0xe})
	/m/etcd6429/balancer.go:45 +0x287
bugs/etcd6429.TestUpThenClose.func1()
	/m/etcd6429/balancer_test.go:14 +0x145
`, "/m/etcd6429/balancer.go:45"},
		{"in the test", `panic: boom

goroutine 7 [running]:
x.TestX(0xc000)
	/m/x/x_test.go:9 +0x20
testing.tRunner(0xc000, 0x1)
	/usr/local/go/src/testing/testing.go:1 +0x1
`, "/m/x/x_test.go:9"},
		{"only the Go root (a test's timeout)", `panic: test timed out after 10m0s

goroutine 40 [running]:
testing.(*M).startAlarm.func1()
	/usr/local/go/src/testing/testing.go:2 +0x1

goroutine 1 [chan receive]:
x.f()
	/m/x/x.go:3 +0x1
`, ""},
		{"no panic", "--- FAIL: TestX\n    x_test.go:3: bad\n", ""},
	} {
		if got := PanicFrame(c.out); got != c.want {
			t.Errorf("%s: PanicFrame = %q, want %q", c.name, got, c.want)
		}
	}
}
