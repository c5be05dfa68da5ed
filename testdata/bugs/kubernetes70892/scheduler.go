// Package kubernetes70892 reduces kubernetes/kubernetes#70892
// (https://github.com/kubernetes/kubernetes/pull/70892, fix a race in the
// scheduler).
//
// PrioritizeNodes scores every node under every priority config with
// ParallelizeUntil, whose workers each run the closure processNode for
// one node. The closure shares results, one score list per config, with
// every worker, and modifies the list itself (results[i]) inside the node
// loop, not only its own node's entry (results[i][index]): here it makes
// the list when it finds none. Two workers racing on that check both make
// a list (a data race, as the race detector reported it: a read and a
// write of results[i] by two workers), and the later one replaces the
// list into which the earlier one wrote its node's score. In the test the
// second node's lookup is slower, so the first worker made the lists long
// before; in the bad schedule a node's score is lost (0).
//
// Upstream fix: the score lists are made in a loop over the priority
// configs of their own, before the workers start; the node loop only
// writes results[i][index].
package kubernetes70892

import (
	"context"
	"sync"
)

// HostPriority is one node's score.
type HostPriority struct {
	Host  string
	Score int
}

// HostPriorityList is the scores of the nodes under one priority.
type HostPriorityList []HostPriority

// PriorityConfig is one priority function and its weight.
type PriorityConfig struct {
	Map    func(node string) int
	Weight int
}

// ParallelizeUntil runs doWorkPiece for each piece in workers goroutines.
func ParallelizeUntil(ctx context.Context, workers, pieces int, doWorkPiece func(piece int)) {
	toProcess := make(chan int, pieces)
	for i := 0; i < pieces; i++ {
		toProcess <- i
	}
	close(toProcess)
	if pieces < workers {
		workers = pieces
	}
	var wg sync.WaitGroup
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func() {
			defer wg.Done()
			for piece := range toProcess {
				select {
				case <-ctx.Done():
					return
				default:
					doWorkPiece(piece)
				}
			}
		}()
	}
	wg.Wait()
}

// PrioritizeNodes scores the nodes, looked up by nodeInfo, under each
// priority config.
func PrioritizeNodes(nodes []string, nodeInfo func(string) string, priorityConfigs []PriorityConfig) []HostPriorityList {
	results := make([]HostPriorityList, len(priorityConfigs))
	processNode := func(index int) {
		info := nodeInfo(nodes[index])
		for i := range priorityConfigs {
			if results[i] == nil {
				results[i] = make(HostPriorityList, len(nodes))
			}
			results[i][index] = HostPriority{Host: nodes[index], Score: priorityConfigs[i].Map(info) * priorityConfigs[i].Weight}
		}
	}
	ParallelizeUntil(context.Background(), 16, len(nodes), processNode)
	return results
}
