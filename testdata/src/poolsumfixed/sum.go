package poolsumfixed

import "subjects/poolsumfixed/workers"

// Sum returns the sum of the squares of items.
func Sum(items []int) int {
	sq := make([]int, len(items))
	workers.Each(len(items), func(i int) {
		sq[i] = items[i] * items[i]
	})
	total := 0
	for _, v := range sq {
		total += v
	}
	return total
}
