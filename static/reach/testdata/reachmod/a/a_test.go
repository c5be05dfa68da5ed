package a

import "testing"

func TestStatic(t *testing.T) { NewCounter().Inc() }

func TestSubtest(t *testing.T) {
	t.Run("get", func(t *testing.T) {
		if NewCounter().Get() != 0 {
			t.Fail()
		}
	})
}

func TestInvoke(t *testing.T) {
	var d Doer = X{}
	if Run(d) != 1 {
		t.Fail()
	}
}

func TestPointerInvoke(t *testing.T) {
	if Run(&Y{}) != 2 {
		t.Fail()
	}
}

func TestSort(t *testing.T) { SortByLen([]string{"bb", "a"}) }

func TestGeneric(t *testing.T) {
	if Doubles([]int{1})[0] != 2 {
		t.Fail()
	}
}

func TestSpawn(t *testing.T) { Spawn(NewCounter()) }

func TestMethodValue(t *testing.T) { Apply(NewCounter()) }

func TestNothing(t *testing.T) {}
