// Package kubernetes70892fixed is kubernetes70892 with the upstream fix of
// https://github.com/kubernetes/kubernetes/pull/70892: the score lists are
// made before the workers start, and the node loop writes only its own
// node's entries.
package kubernetes70892fixed

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
	for i := range priorityConfigs {
		results[i] = make(HostPriorityList, len(nodes))
	}
	processNode := func(index int) {
		info := nodeInfo(nodes[index])
		for i := range priorityConfigs {
			results[i][index] = HostPriority{Host: nodes[index], Score: priorityConfigs[i].Map(info) * priorityConfigs[i].Weight}
		}
	}
	ParallelizeUntil(context.Background(), 16, len(nodes), processNode)
	return results
}
