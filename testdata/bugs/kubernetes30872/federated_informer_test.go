package kubernetes30872

import (
	"testing"
	"time"
)

func TestReconcileWhileClusterAdded(t *testing.T) {
	fifo := newDeltaFIFO()
	fifo.Add("cluster1")
	f := newFederatedInformer(fifo)
	f.Start()
	time.Sleep(20 * time.Millisecond) // the namespace controller reconciles later
	if !f.ClustersSynced() {
		t.Error("ClustersSynced = false after the cluster was added")
	}
	f.Stop()
	if n := f.clusterCount(); n != 1 {
		t.Errorf("%d clusters, want 1", n)
	}
}
