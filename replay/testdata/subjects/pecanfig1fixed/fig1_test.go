package pecanfig1fixed

import "testing"

func TestFigure1(t *testing.T) {
	Run()
}
