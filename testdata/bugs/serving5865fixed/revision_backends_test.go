package serving5865fixed

import (
	"testing"
	"time"
)

func TestEndpointsUpdatedThenRevisionDeleted(t *testing.T) {
	rbm := newRevisionBackendsManager()
	rbm.endpointsUpdated("rev-1", []string{"10.0.0.1:8012"})
	rw := rbm.getOrCreateRevisionWatcher("rev-1")
	done := make(chan struct{})
	go func() { // the endpoints informer
		defer close(done)
		rbm.endpointsUpdated("rev-1", []string{"10.0.0.1:8012", "10.0.0.2:8012"})
	}()
	time.Sleep(20 * time.Millisecond) // the revision is deleted later
	rbm.revisionDeleted("rev-1")
	<-done
	if len(rw.Dests()) == 0 {
		t.Errorf("no endpoints applied")
	}
}
