package poolsum

import "subjects/poolsum/workers"

// Sum returns the sum of the squares of items.
func Sum(items []int) int {
	total := 0
	workers.Each(len(items), func(i int) {
		total += items[i] * items[i] // want "data race on Sum\\.total"
	})
	return total
}
