package kubernetes70892fixed

import (
	"testing"
	"time"
)

func TestPrioritizeNodes(t *testing.T) {
	nodes := []string{"machine1", "machine2"}
	nodeInfo := func(name string) string {
		// Each lookup takes a while (one worker per node), the second
		// one longer.
		if name == "machine2" {
			time.Sleep(12 * time.Millisecond)
		} else {
			time.Sleep(2 * time.Millisecond)
		}
		return name
	}
	configs := []PriorityConfig{
		{Map: func(string) int { return 1 }, Weight: 1},
		{Map: func(string) int { return 2 }, Weight: 3},
	}
	results := PrioritizeNodes(nodes, nodeInfo, configs)
	for i, list := range results {
		for j, hp := range list {
			if want := configs[i].Map(nodes[j]) * configs[i].Weight; hp.Host != nodes[j] || hp.Score != want {
				t.Errorf("results[%d][%d] = %+v, want {%s %d}", i, j, hp, nodes[j], want)
			}
		}
	}
}
